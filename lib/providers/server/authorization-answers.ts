import "server-only";
import type { z } from "zod";
import type { CaptureOutcome, VoidOutcome } from "@/lib/providers/kit/adapter";
import type { ProviderResponse } from "@/lib/providers/kit/provider-http";
import { readRefundStatusTransport, readRefundTransport, type Answered } from "./provider-answers";

/**
 * What a capture's or void's HTTP exchange says before its body is read, the same rules
 * as a refund's: not sent or refused (401, 403, 429, 503) → `refused`, nothing changed; a timeout,
 * a 5xx or a 409 (the key is in use) → `unknown`; another 4xx → `declined`. A status request's 404
 * means the capture or void never arrived (`refused`); a status request not answered says nothing.
 */
type NotRead = {
  outcome: Extract<CaptureOutcome, { kind: "declined" | "refused" | "unknown" }> & Extract<VoidOutcome, { kind: "declined" | "refused" | "unknown" }>;
};

export function readAuthorizationTransport(response: ProviderResponse, statusRequest: boolean): NotRead | { answer: Answered } {
  const read = statusRequest ? readRefundStatusTransport(response) : readRefundTransport(response);
  if (!("outcome" in read)) return read;
  const { outcome } = read;
  const message = "message" in outcome ? outcome.message.replaceAll("refund", "request") : "The provider gave no answer.";
  if (outcome.kind === "refused") return { outcome: { kind: "refused", message } };
  if (outcome.kind === "declined") return { outcome: { kind: "declined", message } };
  return { outcome: { kind: "unknown", message } };
}

/** A 2xx answer the adapter cannot read: only a status request can tell. */
function unreadableAuthorizationAnswer(answer: Answered): { kind: "unknown"; message: string } {
  return { kind: "unknown", message: `The provider answered HTTP ${answer.status} in a form this service does not understand.` };
}

/**
 * A capture's or void's answer read in the provider's own words: what the exchange already says
 * (`readAuthorizationTransport`), else the body checked with the provider's `schema` and turned into
 * an outcome by its `outcomeOf`; a body it cannot read is unknown until a status request tells.
 */
export function readAuthorizationAnswer<T, O extends CaptureOutcome | VoidOutcome>(
  read: NotRead | { answer: Answered },
  schema: z.ZodType<T>,
  outcomeOf: (answer: T) => O,
): O | NotRead["outcome"] | { kind: "unknown"; message: string } {
  if ("outcome" in read) return read.outcome;
  const parsed = schema.safeParse(read.answer.body);
  return parsed.success ? outcomeOf(parsed.data) : unreadableAuthorizationAnswer(read.answer);
}
