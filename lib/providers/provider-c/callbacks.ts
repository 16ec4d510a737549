import "server-only";
import { z } from "zod";
import { credentialText, sameText, unixSeconds } from "@/lib/providers/kit/callback-scheme";
import { verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { outcomeOf } from "./mapping";
import { orderFromRecord } from "./sandbox/orders";
import { C_CALLBACK_HEADERS, C_STATES, callbackSignature } from "./wire";

/**
 * Provider C's order notifications: `{ callback_id, order }`, the order as C's shop API gives it,
 * signed with the shop password (./wire.ts).
 */

const orderSchema = z.object({
  id: z.string().min(1),
  shop_order_id: z.string().min(1),
  state: z.enum(C_STATES),
  paid_minor: z.number().int().nonnegative().optional(),
  rejection_reason: z.string().optional(),
});

const eventSchema = z.object({ callback_id: z.string().min(1), order: orderSchema });

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
  notItsShape: "not a Provider C order notification",
  idInBody: { of: (event) => event.callback_id, differs: "callback_id differs from X-Callback-Id" },
  report: ({ order }) => ({ providerReference: order.id, merchantReference: order.shop_order_id, outcome: outcomeOf(order) }),
};

export const providerCCallbacks: ProviderCallbacks = {
  headers: Object.values(C_CALLBACK_HEADERS),
  eventFromRecord(record) {
    const { challenge_url: _challenge, ...order } = orderFromRecord(record).order;
    return order;
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const rawBody = JSON.stringify({ callback_id: notificationId, order: event });
    const signature = callbackSignature(credentialText(credentials, "shop_password"), notificationId, timestamp, rawBody);
    return {
      headers: { "content-type": "application/json", [C_CALLBACK_HEADERS.id]: notificationId, [C_CALLBACK_HEADERS.time]: String(timestamp), [C_CALLBACK_HEADERS.signature]: signature },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
