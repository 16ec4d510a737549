import "server-only";
import { z } from "zod";
import { credentialText, sameText, unixSeconds } from "@/lib/providers/kit/callback-scheme";
import { verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { DISPUTE_OPERATION } from "@/lib/sandbox/disputes";
import { disputeReportOf, outcomeOfCharge, refundOutcomeOf } from "./mapping";
import { presentDispute } from "./sandbox/disputes";
import { presentCharge } from "./sandbox/charges";
import { presentRefund } from "./sandbox/refunds";
import {
  callbackSignature,
  callbackSignatureHeader,
  F_CALLBACK_HEADERS,
  F_CHARGE_STATUSES,
  F_FAILURE_CODES,
  fDisputeSchema,
  fRefundSchema,
  readCallbackSignature,
} from "./wire";

/**
 * Provider F's events: `{ id, object: "event", type: "charge.updated", created, data: { object } }`,
 * the charge as F's API gives it plus the `reference` it was created with, signed with the secret
 * key (./wire.ts). A refund's outcome comes the same way as `type: "refund.updated"` with the
 * refund object (its `reference` is the service's refund id), and a dispute's as `type: "dispute.updated"`
 * with the dispute object.
 */

const chargeSchema = z.object({
  id: z.string().min(1),
  object: z.literal("charge"),
  status: z.enum(F_CHARGE_STATUSES),
  amount_captured: z.number().int().nonnegative(),
  failure_code: z.enum(F_FAILURE_CODES).optional(),
  reference: z.string().optional(),
});

const head = { id: z.string().min(1), object: z.literal("event"), created: z.number().int() };
const eventSchema = z.discriminatedUnion("type", [
  z.object({ ...head, type: z.literal("charge.updated"), data: z.object({ object: chargeSchema }) }),
  z.object({ ...head, type: z.literal("refund.updated"), data: z.object({ object: fRefundSchema }) }),
  z.object({ ...head, type: z.literal("dispute.updated"), data: z.object({ object: fDisputeSchema }) }),
]);

const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read: (headers) => ({
    id: headers.get(F_CALLBACK_HEADERS.id) ?? "",
    timestamp: unixSeconds(headers.get(F_CALLBACK_HEADERS.timestamp)),
    signature: readCallbackSignature(headers.get(F_CALLBACK_HEADERS.signature)),
  }),
  verify({ id, timestamp, signature, rawBody }, credentials) {
    const secret = credentialText(credentials, "secret_key");
    return secret !== "" && sameText(callbackSignature(secret, id, timestamp, rawBody), signature.toLowerCase());
  },
  body: eventSchema,
  notItsShape: "not a Provider F charge, refund or dispute event",
  idInBody: { of: (event) => event.id, differs: "id differs from x-event-id" },
  report: (event) =>
    event.type === "dispute.updated"
      ? { about: "dispute", providerReference: event.data.object.id, dispute: disputeReportOf(event.data.object) }
      : event.type === "refund.updated"
        ? {
            about: "refund",
            providerReference: event.data.object.id,
            merchantReference: event.data.object.reference,
            outcome: refundOutcomeOf(event.data.object),
          }
        : {
            about: "attempt",
            providerReference: event.data.object.id,
            ...(event.data.object.reference ? { merchantReference: event.data.object.reference } : {}),
            outcome: outcomeOfCharge(event.data.object),
          },
};

export const providerFCallbacks: ProviderCallbacks = {
  headers: Object.values(F_CALLBACK_HEADERS),
  eventFromRecord(record) {
    if (record.operation === REFUND_OPERATION) return presentRefund(record).body;
    if (record.operation === DISPUTE_OPERATION) return presentDispute(record);
    const { next_action: _next, ...charge } = presentCharge(record).body as Record<string, unknown>;
    return { ...charge, reference: record.idempotencyKey ?? undefined };
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const object = (event as { object?: unknown }).object;
    const type = object === "refund" ? "refund.updated" : object === "dispute" ? "dispute.updated" : "charge.updated";
    const rawBody = JSON.stringify({ id: notificationId, object: "event", type, created: timestamp, data: { object: event } });
    const signature = callbackSignature(credentialText(credentials, "secret_key"), notificationId, timestamp, rawBody);
    return {
      headers: {
        "content-type": "application/json",
        [F_CALLBACK_HEADERS.id]: notificationId,
        [F_CALLBACK_HEADERS.timestamp]: String(timestamp),
        [F_CALLBACK_HEADERS.signature]: callbackSignatureHeader(signature),
      },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
