import "server-only";
import type { z } from "zod";
import type { CredentialValues } from "@/lib/providers";
import type { CallbackReport, CallbackRequest, CallbackVerification, VerifyCallbackOptions } from "@/lib/providers/kit/provider-server";
import { isFresh, parseJson } from "./callback-scheme";

/**
 * The one way a provider's signed callback is checked, whatever the provider: a missing
 * signature, then one that does not verify, then a stale timestamp are refused (401) before the
 * body is read at all; only then is the body parsed, and a body that is not the provider's
 * notification is malformed (400). Each provider's `callbacks.ts` says only where its id,
 * timestamp and signature are, how its signature verifies and what its notification looks like.
 */

/** The refusals whose words never vary, as the HTTP answer and the stored callback row carry them. */
const CALLBACK_REFUSALS = {
  missing_signature: { status: 401, reason: "missing signature" },
  invalid_signature: { status: 401, reason: "invalid signature" },
  stale_timestamp: { status: 401, reason: "stale timestamp" },
} as const;

type FixedRefusal = keyof typeof CALLBACK_REFUSALS;

/**
 * Every reason a callback is refused. `no_verification_key`: the provider's own public key is not
 * configured or unreadable (A and E in live mode), worded by the key lookup; `malformed`: a
 * verified body that is not the provider's notification, worded `malformed: <detail>`.
 */
export type CallbackRefusalKind = FixedRefusal | "no_verification_key" | "malformed";

export type CallbackRefusal = Extract<CallbackVerification, { ok: false }>;

export function refuseCallback(kind: FixedRefusal): CallbackRefusal;
export function refuseCallback(kind: "no_verification_key" | "malformed", detail: string): CallbackRefusal;
export function refuseCallback(kind: CallbackRefusalKind, detail = ""): CallbackRefusal {
  if (kind === "malformed") return { ok: false, status: 400, reason: `malformed: ${detail}` };
  if (kind === "no_verification_key") return { ok: false, status: 401, reason: detail };
  return { ok: false, ...CALLBACK_REFUSALS[kind] };
}

/** What a callback's headers carry; an empty id or signature, or no readable timestamp, is a missing signature. */
type CallbackSignatureParts = { id: string; timestamp: number | undefined; signature: string | undefined };

type SignedParts = { id: string; timestamp: number; signature: string; rawBody: string };

/** What differs between providers' callback schemes. */
export type SignedCallbackScheme<Event> = {
  /** Where the notification id, the timestamp (unix seconds) and the signature are. */
  read(headers: Headers): CallbackSignatureParts;
  /** Whether the signature proves id, timestamp and raw body; a refusal when there is nothing to verify with. */
  verify(signed: SignedParts, credentials: CredentialValues, options: VerifyCallbackOptions): boolean | CallbackRefusal;
  /** The provider's notification, read only once the signature verified and the timestamp is fresh. */
  body: z.ZodType<Event>;
  /** The detail of a malformed refusal for a body of another shape ("not a Provider B charge notification"). */
  notItsShape: string;
  /** When the body repeats the notification id: where, and the detail of the refusal when it differs from the header's. */
  idInBody?: { of: (event: Event) => string; differs: string };
  /** What the notification reports: what it is about (an attempt or a refund), the references and the outcome. */
  report(event: Event): CallbackReport;
};

export function verifySignedCallback<Event>(
  scheme: SignedCallbackScheme<Event>,
  { headers, rawBody }: CallbackRequest,
  credentials: CredentialValues,
  options: VerifyCallbackOptions,
): CallbackVerification {
  const { id, timestamp, signature } = scheme.read(headers);
  if (!id || timestamp === undefined || !signature) return refuseCallback("missing_signature");
  const verified = scheme.verify({ id, timestamp, signature, rawBody }, credentials, options);
  if (verified !== true) return verified === false ? refuseCallback("invalid_signature") : verified;
  if (!isFresh(timestamp, options.now)) return refuseCallback("stale_timestamp");
  const parsed = scheme.body.safeParse(parseJson(rawBody));
  if (!parsed.success) return refuseCallback("malformed", scheme.notItsShape);
  const event = parsed.data;
  if (scheme.idInBody && scheme.idInBody.of(event) !== id) return refuseCallback("malformed", scheme.idInBody.differs);
  return { ok: true, notification: { notificationId: id, occurredAt: new Date(timestamp * 1000), ...scheme.report(event) } };
}
