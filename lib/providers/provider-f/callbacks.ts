import "server-only";
import { z } from "zod";
import { credentialText, hmac, INVALID_SIGNATURE, isFresh, malformed, MISSING_SIGNATURE, parseJson, sameText, STALE_TIMESTAMP, unixSeconds } from "@/lib/callbacks/scheme";
import type { HardDecline, ProviderOutcome } from "@/lib/providers/kit/adapter";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { presentCharge } from "./sandbox/charges";

/**
 * Provider F's events: `{ id, object: "event", type: "charge.updated", created, data: { object } }`,
 * the charge as F's API gives it plus the `reference` it was created with. Headers
 * `x-event-id`, `x-event-timestamp` (unix seconds) and `x-event-signature: sha256=<hex>`, the
 * HMAC-SHA256 with the secret key of `${x-event-id}\n${x-event-timestamp}\n${raw body}`.
 */

const chargeSchema = z.object({
  id: z.string().min(1),
  object: z.literal("charge"),
  status: z.enum(["succeeded", "requires_action", "failed"]),
  amount_captured: z.number().int().nonnegative(),
  failure_code: z.enum(["card_declined", "insufficient_funds", "incorrect_cvc", "authentication_failed", "processing_error"]).optional(),
  reference: z.string().optional(),
});

const eventSchema = z.object({ id: z.string().min(1), object: z.literal("event"), type: z.literal("charge.updated"), created: z.number().int(), data: z.object({ object: chargeSchema }) });

const FAILURES: Readonly<Record<string, HardDecline>> = { card_declined: "issuer_decline", insufficient_funds: "insufficient_funds", incorrect_cvc: "invalid_cvv", authentication_failed: "auth_3ds_failed" };

const signed = (secret: string, id: string, timestamp: number, rawBody: string) => hmac("sha256", secret, `${id}\n${timestamp}\n${rawBody}`);

function outcomeOf(charge: z.infer<typeof chargeSchema>): ProviderOutcome {
  const providerReference = charge.id;
  if (charge.status === "succeeded") return { kind: "succeeded", providerReference, processedAmountMinor: BigInt(charge.amount_captured) };
  if (charge.status === "requires_action") return { kind: "pending", providerReference };
  if (charge.failure_code === "processing_error") return { kind: "soft_failed", resolution: "provider_unavailable", providerReference, message: "Provider F could not process the charge" };
  return { kind: "declined", resolution: FAILURES[charge.failure_code ?? "card_declined"] ?? "general_error", providerReference, message: `Provider F declined the charge (${charge.failure_code ?? "no code"})` };
}

export const providerFCallbacks: ProviderCallbacks = {
  headers: ["x-event-id", "x-event-timestamp", "x-event-signature"],
  eventFromRecord(record) {
    const { next_action: _next, ...charge } = presentCharge(record).body as Record<string, unknown>;
    return { ...charge, reference: record.idempotencyKey ?? undefined };
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const rawBody = JSON.stringify({ id: notificationId, object: "event", type: "charge.updated", created: timestamp, data: { object: event } });
    const signature = signed(credentialText(credentials, "secret_key"), notificationId, timestamp, rawBody);
    return { headers: { "content-type": "application/json", "x-event-id": notificationId, "x-event-timestamp": String(timestamp), "x-event-signature": `sha256=${signature}` }, rawBody };
  },
  verify({ headers, rawBody }, credentials, { now }) {
    const id = headers.get("x-event-id") ?? "";
    const timestamp = unixSeconds(headers.get("x-event-timestamp"));
    const signature = /^sha256=([0-9a-f]+)$/i.exec(headers.get("x-event-signature") ?? "")?.[1];
    if (!id || timestamp === undefined || !signature) return MISSING_SIGNATURE;
    const secret = credentialText(credentials, "secret_key");
    if (!secret || !sameText(signed(secret, id, timestamp, rawBody), signature.toLowerCase())) return INVALID_SIGNATURE;
    if (!isFresh(timestamp, now)) return STALE_TIMESTAMP;
    const parsed = eventSchema.safeParse(parseJson(rawBody));
    if (!parsed.success) return malformed("not a Provider F charge event");
    if (parsed.data.id !== id) return malformed("id differs from x-event-id");
    const charge = parsed.data.data.object;
    return {
      ok: true,
      notification: { notificationId: id, occurredAt: new Date(timestamp * 1000), providerReference: charge.id, ...(charge.reference ? { merchantReference: charge.reference } : {}), outcome: outcomeOf(charge) },
    };
  },
};
