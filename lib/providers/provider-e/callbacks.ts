import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { INVALID_SIGNATURE, isFresh, malformed, MISSING_SIGNATURE, parseJson, refusal, signEd25519, STALE_TIMESTAMP, unixSeconds, verifyEd25519 } from "@/lib/callbacks/scheme";
import { toMinorUnits } from "@/lib/money";
import type { HardDecline, ProviderOutcome } from "@/lib/providers/kit/adapter";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { providerCallbackPublicKey, sandboxCallbackKeyPair } from "@/lib/sandbox/callback-keys";
import { presentPayment, SLUG } from "./sandbox/payments";
import { E_REFUSALS } from "./wire";

/**
 * Provider E's notifications: `{ notificationId, eventCode: "PAYMENT_UPDATE", eventDate, payment }`,
 * the payment as E's API gives it. E signs with its own key (Ed25519), which the service verifies
 * with E's public key (`lib/sandbox/callback-keys.ts`): `X-E-Signature: ed25519=<base64>` over
 * `${X-E-Notification-Id}\n${X-E-Timestamp}\n${hex SHA-256 of the raw body}`.
 *
 * Whether a verified notification may change anything is the connection's `ignore_callback`
 * (spec 6), decided where callbacks are received (`lib/callbacks/receive.ts`), not here.
 */

const amountSchema = z.object({ value: z.string(), currency: z.string().length(3) });

const paymentSchema = z.object({
  paymentId: z.string().min(1),
  merchantReference: z.string(),
  resultCode: z.enum(["Authorised", "PartiallyAuthorised", "Refused", "RedirectShopper", "Error"]),
  refusalReason: z.string().optional(),
  amount: amountSchema,
  capturedAmount: amountSchema,
});

const eventSchema = z.object({ notificationId: z.string().min(1), eventCode: z.literal("PAYMENT_UPDATE"), eventDate: z.string(), payment: paymentSchema });

const REFUSALS: Readonly<Record<string, HardDecline>> = Object.fromEntries(Object.entries(E_REFUSALS).map(([resolution, words]) => [words, resolution as HardDecline]));

function signingText(id: string, timestamp: number, rawBody: string): string {
  return `${id}\n${timestamp}\n${createHash("sha256").update(rawBody, "utf8").digest("hex")}`;
}

function outcomeOf(payment: z.infer<typeof paymentSchema>): ProviderOutcome {
  const providerReference = payment.paymentId;
  switch (payment.resultCode) {
    case "Authorised":
    case "PartiallyAuthorised":
      return { kind: "succeeded", providerReference, processedAmountMinor: toMinorUnits(payment.capturedAmount.value, payment.capturedAmount.currency) };
    case "RedirectShopper":
      return { kind: "pending", providerReference };
    case "Refused":
      return { kind: "declined", resolution: REFUSALS[payment.refusalReason ?? ""] ?? "general_error", providerReference, message: `Provider E refused the payment: ${payment.refusalReason ?? "no reason given"}` };
    default:
      return { kind: "soft_failed", resolution: "provider_unavailable", providerReference, message: "Provider E could not process the payment" };
  }
}

export const providerECallbacks: ProviderCallbacks = {
  headers: ["x-e-notification-id", "x-e-timestamp", "x-e-signature"],
  eventFromRecord(record) {
    const { action: _action, ...payment } = presentPayment(record).body as Record<string, unknown>;
    return payment;
  },
  sign({ event, notificationId, timestamp }) {
    const rawBody = JSON.stringify({ notificationId, eventCode: "PAYMENT_UPDATE", eventDate: new Date(timestamp * 1000).toISOString(), payment: event });
    const signature = signEd25519(sandboxCallbackKeyPair(SLUG).privateKey, signingText(notificationId, timestamp, rawBody));
    return { headers: { "content-type": "application/json", "x-e-notification-id": notificationId, "x-e-timestamp": String(timestamp), "x-e-signature": `ed25519=${signature}` }, rawBody };
  },
  verify({ headers, rawBody }, _credentials, { mode, now }) {
    const id = headers.get("x-e-notification-id") ?? "";
    const timestamp = unixSeconds(headers.get("x-e-timestamp"));
    const signature = /^ed25519=(.+)$/.exec(headers.get("x-e-signature") ?? "")?.[1];
    if (!id || timestamp === undefined || !signature) return MISSING_SIGNATURE;
    const key = providerCallbackPublicKey(SLUG, mode);
    if (!key.ok) return refusal(401, key.reason);
    if (!verifyEd25519(key.key, signingText(id, timestamp, rawBody), signature)) return INVALID_SIGNATURE;
    if (!isFresh(timestamp, now)) return STALE_TIMESTAMP;
    const parsed = eventSchema.safeParse(parseJson(rawBody));
    if (!parsed.success) return malformed("not a Provider E payment notification");
    if (parsed.data.notificationId !== id) return malformed("notificationId differs from X-E-Notification-Id");
    const { payment } = parsed.data;
    return {
      ok: true,
      notification: { notificationId: id, occurredAt: new Date(timestamp * 1000), providerReference: payment.paymentId, ...(payment.merchantReference ? { merchantReference: payment.merchantReference } : {}), outcome: outcomeOf(payment) },
    };
  },
};
