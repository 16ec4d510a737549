import "server-only";
import { BLOCKED_ADDRESS_CODE, publicOnlyAgent } from "@/lib/http/public-only-agent";
import { redact } from "@/lib/logger";
import { recordProviderCall } from "@/lib/metrics/record";
import type { Mode } from "@/lib/providers";
import { SANDBOX_CALLER_HEADER, sandboxCallerToken } from "@/lib/sandbox/self-call";
import { UNSAVED_ACCOUNT_HEADER } from "@/lib/sandbox/unsaved-account";
import { baseUrlRefusal } from "@/lib/providers/kit/mode-guard";

/**
 * The one way adapters reach a provider: fetch with a timeout, every request and answer recorded
 * for the attempt log with secrets and card numbers removed, and transport failures classified so
 * the engine knows whether the request may have reached the provider.
 */

/** One request and its answer as the attempt log shows them (already redacted). */
export type Exchange = {
  at: string;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number | null;
  responseBody: unknown;
  durationMs: number;
  /** Transport failure in plain words: "not sent: connection refused", "timed out after 10000 ms". */
  error?: string;
};

export type ExchangeRecorder = {
  record(exchange: Exchange): void;
  list(): readonly Exchange[];
};

/**
 * PostgreSQL text and jsonb cannot hold U+0000, and a provider's garbled answer may carry it: the
 * log keeps a visible replacement character instead, so recording the attempt never fails.
 */
const withoutNul = (text: string): string => (text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text);

/**
 * Records exchanges, replacing every value in `secrets` (the connection's secret credentials,
 * signatures made with them, the full card number) wherever it appears, before anything is kept.
 */
export function createExchangeRecorder(secrets: readonly string[] = []): ExchangeRecorder & { addSecret(value: string): void } {
  const hidden = new Set(secrets.filter((value) => value.length >= 4));
  const exchanges: Exchange[] = [];
  const scrub = (value: unknown): unknown => {
    if (typeof value === "string") {
      let text = withoutNul(value);
      for (const secret of hidden) text = text.split(secret).join("[redacted]");
      return text;
    }
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), scrub(v)]));
    return value;
  };
  return {
    addSecret: (value) => {
      if (value.length >= 4) hidden.add(value);
    },
    record: (exchange) => exchanges.push(redact(scrub(exchange)) as Exchange),
    list: () => exchanges,
  };
}

export type ProviderRequest = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Appended to the context's base URL. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless `rawBody` is given (a provider that signs the exact bytes). */
  body?: unknown;
  rawBody?: string;
};

export type ProviderResponse =
  | { kind: "answered"; status: number; headers: Headers; body: unknown; text: string }
  /** The request never left (refused, unknown host): safe to try elsewhere. */
  | { kind: "not_sent"; message: string }
  /**
   * Sent, no usable answer: none in time, the connection lost, or a 2xx answer whose body is not
   * JSON (a garbled answer). The provider may have acted; only a status request can tell.
   */
  | { kind: "timed_out"; message: string };

const NOT_SENT_CODES = new Set([
  BLOCKED_ADDRESS_CODE,
  "ERR_ADDRESS_REFUSED",
  "ERR_INVALID_URL",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNRESET_BEFORE_SEND",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === "string") return cause.code;
  // fetch refuses some addresses before connecting (a blocked port, a malformed URL): never sent.
  if (typeof cause?.message === "string" && /^(bad port|invalid url)/i.test(cause.message)) return "ERR_ADDRESS_REFUSED";
  return undefined;
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Every provider here answers JSON: a 2xx answer with a body that is not JSON was garbled on the way. */
function isGarbled(status: number, text: string): boolean {
  if (status < 200 || status >= 300 || text.trim() === "") return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

export type CallContext = {
  /** The connection's mode: test calls reach only the sandbox, live calls never this server. */
  mode: Mode;
  /** The provider's slug (`provider-b`), the label of this call's metrics; `unknown` when not given. */
  provider?: string;
  baseUrl: string;
  timeoutMs: number;
  exchanges: ExchangeRecorder;
  guardUrl?: (url: string) => Promise<string | undefined>;
  /** Connect only to public addresses, checked as the socket connects (an address the merchant chose). */
  publicAddressOnly?: boolean;
  /** Test connection before saving: the typed values for the sandbox, sealed (lib/sandbox/unsaved-account.ts). Test mode only, never recorded. */
  unsavedAccountToken?: string;
};

function notSentMessage(error: unknown, code: string): string {
  if (code === "ECONNREFUSED") return "not sent: connection refused";
  if (code === BLOCKED_ADDRESS_CODE) {
    const cause = (error as { cause?: { message?: unknown } }).cause;
    return `not sent: ${typeof cause?.message === "string" ? cause.message : "the address is not public"}`;
  }
  return `not sent: ${code}`;
}

/** The call's latency and outcome for the metrics, by provider slug and mode (bounded labels only). */
function measured(context: CallContext, outcome: string, started: number): void {
  recordProviderCall(context.provider ?? "unknown", context.mode, outcome, Date.now() - started);
}

export async function callProvider(context: CallContext, request: ProviderRequest): Promise<ProviderResponse> {
  const url = context.baseUrl.replace(/\/$/, "") + request.path;
  const headers: Record<string, string> = { accept: "application/json", ...request.headers };
  const body = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const started = Date.now();
  const base = { at: new Date(started).toISOString(), method: request.method, url, requestHeaders: headers, requestBody: parseBody(body ?? "") };
  const refused = baseUrlRefusal(context.mode, url) ?? (context.guardUrl ? await context.guardUrl(url) : undefined);
  if (refused !== undefined) {
    const message = `not sent: ${refused}`;
    context.exchanges.record({ ...base, status: null, responseBody: null, durationMs: Date.now() - started, error: message });
    measured(context, "not_sent", started);
    return { kind: "not_sent", message };
  }
  try {
    // The sandbox knows this server's own calls by a token that is sent but never recorded.
    const unsaved: Record<string, string> = context.unsavedAccountToken ? { [UNSAVED_ACCOUNT_HEADER]: context.unsavedAccountToken } : {};
    const sent: Record<string, string> = context.mode === "test" ? { ...headers, [SANDBOX_CALLER_HEADER]: sandboxCallerToken(), ...unsaved } : headers;
    const init: RequestInit & { dispatcher?: unknown } = {
      method: request.method,
      headers: sent,
      body,
      signal: AbortSignal.timeout(context.timeoutMs),
      redirect: "manual",
    };
    if (context.publicAddressOnly) init.dispatcher = publicOnlyAgent();
    const response = await fetch(url, init as RequestInit);
    const text = await response.text();
    const parsed = parseBody(text);
    if (isGarbled(response.status, text)) {
      // Not a refusal (a 2xx says the request was taken) and not readable: the outcome is unknown.
      const message = `answered HTTP ${response.status} with a body that is not JSON; the outcome is unknown`;
      context.exchanges.record({ ...base, status: response.status, responseBody: parsed, durationMs: Date.now() - started, error: message });
      measured(context, "garbled", started);
      return { kind: "timed_out", message };
    }
    context.exchanges.record({ ...base, status: response.status, responseBody: parsed, durationMs: Date.now() - started });
    measured(context, `http_${Math.floor(response.status / 100)}xx`, started);
    return { kind: "answered", status: response.status, headers: response.headers, body: parsed, text };
  } catch (error) {
    const durationMs = Date.now() - started;
    const code = causeCode(error);
    const timedOut = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
    const result: ProviderResponse =
      !timedOut && code !== undefined && NOT_SENT_CODES.has(code)
        ? { kind: "not_sent", message: notSentMessage(error, code) }
        : { kind: "timed_out", message: timedOut ? `no answer within ${context.timeoutMs} ms` : `connection lost (${code ?? "unknown"})` };
    context.exchanges.record({ ...base, status: null, responseBody: null, durationMs, error: result.message });
    measured(context, result.kind, started);
    return result;
  }
}
