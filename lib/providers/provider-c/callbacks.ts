import "server-only";
import { z } from "zod";
import { credentialText, hmac, INVALID_SIGNATURE, isFresh, malformed, MISSING_SIGNATURE, parseJson, sameText, STALE_TIMESTAMP, unixSeconds } from "@/lib/callbacks/scheme";
import type { HardDecline, ProviderOutcome } from "@/lib/providers/kit/adapter";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { orderFromRecord } from "./sandbox/orders";

/**
 * Provider C's order notifications: `{ callback_id, order }`, the order as C's shop API gives it.
 * C has no API secret of its own for the shop beyond the shop password, so it keys the HMAC with
 * it: `X-Callback-Signature` is the base64 HMAC-SHA256 with the shop password of
 * `${X-Callback-Id}|${X-Callback-Time}|${raw body}` (time in unix seconds).
 */

const orderSchema = z.object({
  id: z.string().min(1),
  shop_order_id: z.string().min(1),
  state: z.enum(["PAID", "PARTIALLY_PAID", "REJECTED", "AWAITING_3DS", "PROCESSING"]),
  paid_minor: z.number().int().nonnegative().optional(),
  rejection_reason: z.string().optional(),
});

const eventSchema = z.object({ callback_id: z.string().min(1), order: orderSchema });

const REJECTIONS: Record<string, HardDecline> = { ISSUER_DECLINED: "issuer_decline", INSUFFICIENT_FUNDS: "insufficient_funds", CVC_INVALID: "invalid_cvv", THREE_DS_FAILED: "auth_3ds_failed" };

const signed = (password: string, id: string, time: number, rawBody: string) => hmac("sha256", password, `${id}|${time}|${rawBody}`, "base64");

function outcomeOf(order: z.infer<typeof orderSchema>): ProviderOutcome {
  const providerReference = order.id;
  switch (order.state) {
    case "PAID":
    case "PARTIALLY_PAID":
      return { kind: "succeeded", providerReference, processedAmountMinor: BigInt(order.paid_minor ?? 0) };
    case "AWAITING_3DS":
    case "PROCESSING":
      return { kind: "pending", providerReference };
    case "REJECTED":
      return { kind: "declined", resolution: REJECTIONS[order.rejection_reason ?? ""] ?? "general_error", providerReference, message: `Rejected by Provider C (${order.rejection_reason ?? "no reason"}).` };
  }
}

export const providerCCallbacks: ProviderCallbacks = {
  headers: ["x-callback-id", "x-callback-time", "x-callback-signature"],
  eventFromRecord(record) {
    const { challenge_url: _challenge, ...order } = orderFromRecord(record).order;
    return order;
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const rawBody = JSON.stringify({ callback_id: notificationId, order: event });
    const signature = signed(credentialText(credentials, "shop_password"), notificationId, timestamp, rawBody);
    return { headers: { "content-type": "application/json", "x-callback-id": notificationId, "x-callback-time": String(timestamp), "x-callback-signature": signature }, rawBody };
  },
  verify({ headers, rawBody }, credentials, { now }) {
    const id = headers.get("x-callback-id") ?? "";
    const time = unixSeconds(headers.get("x-callback-time"));
    const signature = headers.get("x-callback-signature") ?? "";
    if (!id || time === undefined || !signature) return MISSING_SIGNATURE;
    const password = credentialText(credentials, "shop_password");
    if (!password || !sameText(signed(password, id, time, rawBody), signature)) return INVALID_SIGNATURE;
    if (!isFresh(time, now)) return STALE_TIMESTAMP;
    const parsed = eventSchema.safeParse(parseJson(rawBody));
    if (!parsed.success) return malformed("not a Provider C order notification");
    if (parsed.data.callback_id !== id) return malformed("callback_id differs from X-Callback-Id");
    const { order } = parsed.data;
    return { ok: true, notification: { notificationId: id, occurredAt: new Date(time * 1000), providerReference: order.id, merchantReference: order.shop_order_id, outcome: outcomeOf(order) } };
  },
};
