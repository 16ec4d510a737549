import "server-only";
import { z } from "zod";
import { credentialText, sameText, unixSeconds } from "@/lib/providers/kit/callback-scheme";
import { verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { DISPUTE_OPERATION } from "@/lib/sandbox/disputes";
import { disputeReportOf, outcomeOfTransaction, refundOutcomeOf } from "./mapping";
import { disputeFromRecord } from "./sandbox/disputes";
import { refundFromRecord } from "./sandbox/refunds";
import { callbackSign, D_CALLBACK_HEADERS, D_STATES, dDisputeSchema, dRefundAnswerSchema, type DTransaction } from "./wire";

/**
 * Provider D's notifications, JSON-RPC style like its API: `{ method: "transaction.notify",
 * params: { notify_id, transaction } }`, the transaction as D's status call gives it (amounts in
 * tiyin), signed with the merchant's secret key (./wire.ts). A refund's outcome comes the same way
 * as `{ method: "refund.notify", params: { notify_id, refund } }`, the refund as D's
 * `refund.status` gives it (`transaction_id` is the service's refund id), and a dispute's as
 * `{ method: "dispute.notify", params: { notify_id, dispute } }`, the dispute as `dispute/status` gives it.
 */

const transactionSchema = z.object({
  transaction_id: z.string().min(1),
  payment_id: z.string().min(1),
  state: z.union([z.literal(D_STATES.performed), z.literal(D_STATES.performedPartly), z.literal(D_STATES.rejected), z.literal(D_STATES.failed)]),
  captured_amount: z.number().int().nonnegative(),
  reject_code: z.number().int().nullable(),
});

const eventSchema = z.discriminatedUnion("method", [
  z.object({ method: z.literal("transaction.notify"), params: z.object({ notify_id: z.string().min(1), transaction: transactionSchema }) }),
  z.object({ method: z.literal("refund.notify"), params: z.object({ notify_id: z.string().min(1), refund: dRefundAnswerSchema }) }),
  z.object({ method: z.literal("dispute.notify"), params: z.object({ notify_id: z.string().min(1), dispute: dDisputeSchema }) }),
]);

const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read: (headers) => ({
    id: headers.get(D_CALLBACK_HEADERS.id) ?? "",
    timestamp: unixSeconds(headers.get(D_CALLBACK_HEADERS.time)),
    signature: headers.get(D_CALLBACK_HEADERS.sign) ?? "",
  }),
  verify({ id, timestamp, signature, rawBody }, credentials) {
    const secret = credentialText(credentials, "secret_key");
    return secret !== "" && sameText(callbackSign(secret, id, timestamp, rawBody), signature.toLowerCase());
  },
  body: eventSchema,
  notItsShape: "not a Provider D transaction, refund or dispute notification",
  idInBody: { of: (event) => event.params.notify_id, differs: "params.notify_id differs from Notify-Id" },
  report: (event) =>
    event.method === "dispute.notify"
      ? { about: "dispute", providerReference: event.params.dispute.dispute_id, dispute: disputeReportOf(event.params.dispute) }
      : event.method === "refund.notify"
        ? {
            about: "refund",
            providerReference: event.params.refund.refund_id,
            merchantReference: event.params.refund.transaction_id,
            outcome: refundOutcomeOf(event.params.refund),
          }
        : {
            about: "attempt",
            providerReference: event.params.transaction.payment_id,
            merchantReference: event.params.transaction.transaction_id,
            outcome: outcomeOfTransaction(event.params.transaction),
          },
};

export const providerDCallbacks: ProviderCallbacks = {
  headers: Object.values(D_CALLBACK_HEADERS),
  eventFromRecord(record) {
    if (record.operation === REFUND_OPERATION) return refundFromRecord(record);
    if (record.operation === DISPUTE_OPERATION) return disputeFromRecord(record);
    return (record.details as { transaction?: DTransaction }).transaction;
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const rawBody = JSON.stringify(
      dDisputeSchema.safeParse(event).success
        ? { method: "dispute.notify", params: { notify_id: notificationId, dispute: event } }
        : dRefundAnswerSchema.safeParse(event).success
          ? { method: "refund.notify", params: { notify_id: notificationId, refund: event } }
          : { method: "transaction.notify", params: { notify_id: notificationId, transaction: event } },
    );
    return {
      headers: {
        "content-type": "application/json",
        [D_CALLBACK_HEADERS.id]: notificationId,
        [D_CALLBACK_HEADERS.time]: String(timestamp),
        [D_CALLBACK_HEADERS.sign]: callbackSign(credentialText(credentials, "secret_key"), notificationId, timestamp, rawBody),
      },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
