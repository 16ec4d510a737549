import "server-only";
import type { z } from "zod";
import type { DisputeActionOutcome, DisputeReport, DisputeStatusOutcome } from "@/lib/providers/kit/adapter";
import type { ProviderResponse } from "@/lib/providers/kit/provider-http";
import { findErrorCode } from "./provider-answers";

/**
 * What a dispute call's HTTP exchange says, the same for every provider; each adapter reads a 2xx
 * body with its own schema and mapping (`reportOf`), and names its own refusal codes (`refusalOf`).
 *
 * A submission or an acceptance: not sent, refused credentials, 429 or 503 → `failed` (nothing
 * changed, may be sent again); a timeout or another 5xx → `unknown` (only a status request can
 * tell); a 4xx whose code the provider's mapping reads as too late or closed → `refused`; any other
 * 4xx → `failed`; a 2xx it cannot read → `unknown`.
 */
export function readDisputeAction<T>(
  response: ProviderResponse,
  schema: z.ZodType<T>,
  reportOf: (answer: T) => DisputeReport,
  refusalOf: (code: string | undefined) => "deadline_passed" | "closed" | undefined,
): DisputeActionOutcome {
  if (response.kind === "not_sent") return { kind: "failed", message: response.message };
  if (response.kind === "timed_out") return { kind: "unknown", message: response.message };
  const { status, body } = response;
  const code = findErrorCode(body);
  const said = code ? `: ${code}` : "";
  if (status === 401 || status === 403) return { kind: "failed", message: `The provider refused the credentials (HTTP ${status}${said}).` };
  if (status === 429 || status === 503) return { kind: "failed", message: `The provider could not take the request (HTTP ${status}${said}).` };
  if (status >= 500) return { kind: "unknown", message: `The provider answered HTTP ${status}; whether it took the request is not known yet.` };
  if (status < 200 || status >= 300) {
    const refused = refusalOf(code);
    if (refused) return { kind: "refused", code: refused, message: `The provider refused it (HTTP ${status}${said}).` };
    return { kind: "failed", message: `The provider refused the request (HTTP ${status}${said}).` };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) return { kind: "unknown", message: `The provider answered HTTP ${status} in a form this service does not understand.` };
  return { kind: "taken", report: reportOf(parsed.data) };
}

/** A dispute status request: 404 → `not_found`; anything but a readable 2xx → `failed` (ask again later). */
export function readDisputeStatus<T>(response: ProviderResponse, schema: z.ZodType<T>, reportOf: (answer: T) => DisputeReport): DisputeStatusOutcome {
  if (response.kind !== "answered") return { kind: "failed", message: response.message };
  const code = findErrorCode(response.body);
  if (response.status === 404) return { kind: "not_found", message: `The provider has no such dispute${code ? ` (${code})` : ""}.` };
  if (response.status < 200 || response.status >= 300) {
    return { kind: "failed", message: `The provider answered HTTP ${response.status}${code ? `: ${code}` : ""}.` };
  }
  const parsed = schema.safeParse(response.body);
  if (!parsed.success) return { kind: "failed", message: `The provider answered HTTP ${response.status} in a form this service does not understand.` };
  return { kind: "found", report: reportOf(parsed.data) };
}

/**
 * A provider's word table (service value → its word) read backwards: the service's value for the
 * word received, or `fallback` when none has it. The sandboxes read the same table forwards.
 */
export function readBack<K extends string>(table: Readonly<Record<K, string | number>>, word: string | number, fallback: NoInfer<K>): K {
  for (const [key, value] of Object.entries(table) as [K, string | number][]) if (value === word) return key;
  return fallback;
}

/** Why a provider refused a dispute request for good, in the service's words. */
export type DisputeRefusal = Extract<DisputeActionOutcome, { kind: "refused" }>["code"];

/** A provider's refusal table (service refusal → how the provider words it) read backwards by `matches`. */
export function refusalOf<Entry>(table: Readonly<Record<DisputeRefusal, Entry>>, matches: (entry: Entry) => boolean): DisputeRefusal | undefined {
  return (Object.keys(table) as DisputeRefusal[]).find((key) => matches(table[key]));
}
