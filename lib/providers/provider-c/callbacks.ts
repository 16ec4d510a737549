import "server-only";
import { z } from "zod";
import { credentialText, sameText, unixSeconds } from "@/lib/providers/kit/callback-scheme";
import { verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { DISPUTE_OPERATION } from "@/lib/sandbox/disputes";
import { disputeReportOf, outcomeOf, refundOutcomeOf } from "./mapping";
import { disputeFromRecord } from "./sandbox/disputes";
import { orderFromRecord } from "./sandbox/orders";
import { refundFromRecord } from "./sandbox/refunds";
import { C_CALLBACK_HEADERS, C_STATES, callbackSignature, cDisputeSchema, cRefundSchema } from "./wire";

/**
 * Provider C's order notifications: `{ callback_id, order }`, the order as C's shop API gives it,
 * signed with the shop password (./wire.ts). A refund's outcome comes the same way as
 * `{ callback_id, refund }`, the refund as `GET /shop/refunds/{shop_refund_id}` answers it, and a
 * dispute's as `{ callback_id, dispute }`, the dispute as `GET /shop/disputes/{id}` answers it.
 */

const orderSchema = z.object({
  id: z.string().min(1),
  shop_order_id: z.string().min(1),
  state: z.enum(C_STATES),
  paid_minor: z.number().int().nonnegative().optional(),
  rejection_reason: z.string().optional(),
  authorized_minor: z.number().int().nonnegative().optional(),
  authorization_expires_at: z.string().optional(),
});

const eventSchema = z.union([
  z.object({ callback_id: z.string().min(1), order: orderSchema }),
  cRefundSchema.extend({ callback_id: z.string().min(1) }),
  cDisputeSchema.extend({ callback_id: z.string().min(1) }),
]);

const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read: (headers) => ({
    id: headers.get(C_CALLBACK_HEADERS.id) ?? "",
    timestamp: unixSeconds(headers.get(C_CALLBACK_HEADERS.time)),
    signature: headers.get(C_CALLBACK_HEADERS.signature) ?? "",
  }),
  verify({ id, timestamp, signature, rawBody }, credentials) {
    const password = credentialText(credentials, "shop_password");
    return password !== "" && sameText(callbackSignature(password, id, timestamp, rawBody), signature);
  },
  body: eventSchema,
  notItsShape: "not a Provider C order, refund or dispute notification",
  idInBody: { of: (event) => event.callback_id, differs: "callback_id differs from X-Callback-Id" },
  report: (event) =>
    "dispute" in event
      ? { about: "dispute", providerReference: event.dispute.id, dispute: disputeReportOf(event.dispute) }
      : "refund" in event
        ? { about: "refund", providerReference: event.refund.id, merchantReference: event.refund.shop_refund_id, outcome: refundOutcomeOf(event.refund) }
        : { about: "attempt", providerReference: event.order.id, merchantReference: event.order.shop_order_id, outcome: outcomeOf(event.order) },
};

export const providerCCallbacks: ProviderCallbacks = {
  headers: Object.values(C_CALLBACK_HEADERS),
  eventFromRecord(record) {
    if (record.operation === REFUND_OPERATION) return refundFromRecord(record);
    if (record.operation === DISPUTE_OPERATION) return disputeFromRecord(record);
    const { challenge_url: _challenge, ...order } = orderFromRecord(record).order;
    return order;
  },
  sign({ event, credentials, notificationId, timestamp }) {
    // A refund's event is `{ refund }` already, a dispute's `{ dispute }`; an order's is the order alone.
    const wrapped = cRefundSchema.safeParse(event).success || cDisputeSchema.safeParse(event).success;
    const rawBody = JSON.stringify(wrapped ? { callback_id: notificationId, ...(event as object) } : { callback_id: notificationId, order: event });
    const signature = callbackSignature(credentialText(credentials, "shop_password"), notificationId, timestamp, rawBody);
    return {
      headers: {
        "content-type": "application/json",
        [C_CALLBACK_HEADERS.id]: notificationId,
        [C_CALLBACK_HEADERS.time]: String(timestamp),
        [C_CALLBACK_HEADERS.signature]: signature,
      },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
