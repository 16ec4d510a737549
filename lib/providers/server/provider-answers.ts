import "server-only";
import type { AdapterContext, HardDecline, HealthResult, ProviderOutcome, RefundOutcome } from "@/lib/providers/kit/adapter";
import { credentialText } from "@/lib/providers/kit/callback-scheme";
import type { ExchangeRecorder, ProviderResponse } from "@/lib/providers/kit/provider-http";

/**
 * The part of mapping a provider's answer that is the same for every provider: how the transport
 * ended and what the HTTP status alone says. Each adapter maps the body of a 2xx answer itself,
 * because every provider words its result differently.
 */

export type Answered = Extract<ProviderResponse, { kind: "answered" }>;

/**
 * The outcome decided before looking at the body, or the 2xx answer to read further.
 * Refused credentials and an unavailable provider are soft failures (the next connection may
 * take the invoice); a timeout after sending is unknown until a status request settles it.
 */
export function readTransport(response: ProviderResponse): { outcome: ProviderOutcome } | { answer: Answered } {
  if (response.kind === "not_sent") return { outcome: { kind: "soft_failed", resolution: "provider_unavailable", message: response.message } };
  if (response.kind === "timed_out") return { outcome: { kind: "unknown", message: response.message } };
  const { status } = response;
  if (status === 401 || status === 403) {
    return {
      outcome: {
        kind: "soft_failed",
        resolution: "provider_auth_error",
        message: `The provider refused the credentials (HTTP ${status}${errorCodeSuffix(response.body)}).`,
      },
    };
  }
  if (status === 429 || status >= 500) {
    return { outcome: { kind: "soft_failed", resolution: "provider_unavailable", message: `The provider could not take the request (HTTP ${status}).` } };
  }
  if (status < 200 || status >= 300) {
    return {
      outcome: {
        kind: "declined",
        resolution: "general_error",
        message: `The provider refused the request (HTTP ${status}${errorCodeSuffix(response.body)}).`,
      },
    };
  }
  return { answer: response };
}

/**
 * A status request's transport: 404 means the provider never received the request, so it is
 * safe to send again or elsewhere (a soft failure), not a refusal of the payment.
 */
export function readStatusTransport(response: ProviderResponse): { outcome: ProviderOutcome } | { answer: Answered } {
  if (response.kind === "answered" && response.status === 404) {
    return { outcome: { kind: "soft_failed", resolution: "provider_unavailable", message: "The provider has no record of this request: it never arrived." } };
  }
  return readTransport(response);
}

/** A 2xx answer whose body the adapter cannot read: the provider may have acted, so only a status request can tell. */
export function unreadableAnswer(answer: Answered): ProviderOutcome {
  return { kind: "unknown", message: `The provider answered HTTP ${answer.status} in a form this service does not understand.` };
}

/**
 * A health check's answer in plain words. `refusedField` names the credential the provider's
 * refusal most likely points at (read from its error code), or none when the refusal cannot tell.
 */
export function readHealth(response: ProviderResponse, refusedField: (body: unknown) => string | undefined): HealthResult {
  if (response.kind === "not_sent") return { kind: "unreachable", message: response.message.replace(/^not sent: /, "") };
  if (response.kind === "timed_out") return { kind: "unreachable", message: response.message };
  if (response.status === 401 || response.status === 403) {
    const field = refusedField(response.body);
    return { kind: "credentials_refused", ...(field ? { field } : {}), message: `The provider refused the credentials${errorCodeSuffix(response.body)}.` };
  }
  if (response.status >= 200 && response.status < 300) return { kind: "ok", message: "The provider answered and accepted the credentials." };
  return { kind: "unreachable", message: `the provider answered HTTP ${response.status}` };
}

function errorCodeSuffix(body: unknown): string {
  const code = findErrorCode(body);
  return code ? `: ${code}` : "";
}

/** The first `code` / `error_code` string in a provider's error body, whatever its nesting. */
export function findErrorCode(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ["error_code", "errorCode", "code"]) if (typeof record[key] === "string") return record[key];
  for (const value of Object.values(record)) {
    const nested = value && typeof value === "object" ? findErrorCode(value) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

/** A credential of the connection as text ("" when absent or not text). */
export function credentialOf(context: AdapterContext, id: string): string {
  return credentialText(context.credentials, id);
}

/**
 * Values the attempt log must never show (the CVC, the full card number). The engine's recorder
 * accepts more secrets after creation; a recorder without that ability still masks card numbers.
 */
export function hideFromLog(exchanges: ExchangeRecorder, values: readonly (string | undefined)[]): void {
  const recorder = exchanges as ExchangeRecorder & { addSecret?: (value: string) => void };
  for (const value of values) if (value) recorder.addSecret?.(value);
}

/** The hard declines a provider words with a code of its own (general_error is what no code says). */
export type CodedDecline = Exclude<HardDecline, "general_error">;

/**
 * A provider's decline table (resolution → how the provider words it) read backwards: the
 * resolution whose entry `matches` the code received, general_error when none does. The
 * sandboxes read the same table forwards, so the two directions cannot drift apart.
 */
export function declineResolution<Entry>(table: { readonly [R in CodedDecline]?: Entry }, matches: (entry: Entry) => boolean): HardDecline {
  for (const [resolution, entry] of Object.entries(table) as [CodedDecline, Entry][]) if (matches(entry)) return resolution;
  return "general_error";
}

/**
 * A refund's transport, read like a payment's but for money going back: a request the provider
 * clearly did not take (not sent, refused credentials, 429, 503) refunded nothing; a timeout or any
 * other 5xx may have, and stays unknown until a status request says; another 4xx is the provider
 * declining it (its code in the message).
 */
export function readRefundTransport(response: ProviderResponse): { outcome: RefundOutcome } | { answer: Answered } {
  if (response.kind === "not_sent") return { outcome: { kind: "refused", resolution: "provider_unavailable", message: response.message } };
  if (response.kind === "timed_out") return { outcome: { kind: "unknown", message: response.message } };
  const { status } = response;
  if (status === 401 || status === 403) {
    return {
      outcome: {
        kind: "refused",
        resolution: "provider_auth_error",
        message: `The provider refused the credentials (HTTP ${status}${errorCodeSuffix(response.body)}).`,
      },
    };
  }
  if (status === 429 || status === 503) {
    return {
      outcome: {
        kind: "refused",
        resolution: "provider_unavailable",
        message: `The provider could not take the refund (HTTP ${status}${errorCodeSuffix(response.body)}).`,
      },
    };
  }
  if (status >= 500) return { outcome: { kind: "unknown", message: `The provider answered HTTP ${status}; whether it refunded is not known yet.` } };
  // 409: the provider holds this id already (a send still in flight, another request of ours): not a decline.
  if (status === 409)
    return {
      outcome: { kind: "unknown", message: `The provider answered 409${errorCodeSuffix(response.body)}; the refund may be on its way: asking about it.` },
    };
  if (status < 200 || status >= 300) {
    return { outcome: { kind: "declined", message: `The provider declined the refund (HTTP ${status}${errorCodeSuffix(response.body)}).` } };
  }
  return { answer: response };
}

/** A refund status request's transport: 404 means the refund never arrived (nothing refunded); what cannot be answered stays unknown. */
export function readRefundStatusTransport(response: ProviderResponse): { outcome: RefundOutcome } | { answer: Answered } {
  if (response.kind === "answered" && response.status === 404) {
    return { outcome: { kind: "refused", resolution: "provider_unavailable", message: "The provider has no record of this refund: it never arrived." } };
  }
  const read = readRefundTransport(response);
  // A status request that was not answered (not sent, refused, unavailable) says nothing about the refund.
  if ("outcome" in read && (read.outcome.kind === "refused" || read.outcome.kind === "declined")) {
    return { outcome: { kind: "unknown", message: `The status request was not answered (${read.outcome.message}); asking again later.` } };
  }
  return read;
}

/** A 2xx refund answer the adapter cannot read: the provider may have refunded, so only a status request can tell. */
export function unreadableRefundAnswer(answer: Answered): RefundOutcome {
  return { kind: "unknown", message: `The provider answered HTTP ${answer.status} in a form this service does not understand.` };
}

/** A token delete's answer (saved cards): 2xx forgotten, 404 the provider did not know it, anything else failed. */
export function readTokenDelete(response: ProviderResponse): { kind: "deleted" | "unknown_token" } | { kind: "failed"; message: string } {
  if (response.kind !== "answered") return { kind: "failed", message: response.message };
  if (response.status >= 200 && response.status < 300) return { kind: "deleted" };
  if (response.status === 404) return { kind: "unknown_token" };
  return { kind: "failed", message: `The provider answered HTTP ${response.status}${errorCodeSuffix(response.body)}.` };
}
