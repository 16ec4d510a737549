import "server-only";
import { z } from "zod";
import { signEd25519, unixSeconds, verifyEd25519 } from "@/lib/providers/kit/callback-scheme";
import { refuseCallback, verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { providerCallbackPublicKey, sandboxCallbackKeyPair } from "@/lib/sandbox/callback-keys";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { DISPUTE_OPERATION } from "@/lib/sandbox/disputes";
import { disputeReportOf, outcomeOf, refundOutcomeOf } from "./mapping";
import { disputeFromRecord } from "./sandbox/disputes";
import { answerFromRecord } from "./sandbox/answers";
import { refundFromRecord } from "./sandbox/refunds";
import { SLUG } from "./sandbox/common";
import { A_CALLBACK_HEADERS, aCallbackTransactionSchema, aDisputeSchema, aRefundAnswerSchema, callbackSigningText } from "./wire";

/**
 * Provider A's transaction notifications: `{ event_id, type: "transaction.updated", created_at,
 * transaction }`, the transaction as A's status endpoint gives it (a split payout with its parts).
 * A signs them with its own key (./wire.ts), verified with A's published public key
 * (`lib/sandbox/callback-keys.ts`). A refund's outcome comes the same way as
 * `{ event_id, type: "refund.updated", created_at, refund }`, the refund as A's status endpoint
 * answers it (`request_id` is the service's refund id), and a dispute's as
 * `{ event_id, type: "dispute.updated", created_at, dispute }`, the dispute as A's status endpoint answers it.
 */

const head = { event_id: z.string().min(1), created_at: z.string() };
const eventSchema = z.discriminatedUnion("type", [
  z.object({ ...head, type: z.literal("transaction.updated"), transaction: aCallbackTransactionSchema }),
  z.object({ ...head, type: z.literal("refund.updated"), refund: aRefundAnswerSchema }),
  z.object({ ...head, type: z.literal("dispute.updated"), dispute: aDisputeSchema }),
]);

const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read: (headers) => ({
    id: headers.get(A_CALLBACK_HEADERS.eventId) ?? "",
    timestamp: unixSeconds(headers.get(A_CALLBACK_HEADERS.timestamp)),
    signature: headers.get(A_CALLBACK_HEADERS.signature) ?? "",
  }),
  verify({ id, timestamp, signature, rawBody }, _credentials, { mode }) {
    const key = providerCallbackPublicKey(SLUG, mode);
    if (!key.ok) return refuseCallback("no_verification_key", key.reason);
    return verifyEd25519(key.key, callbackSigningText(id, timestamp, rawBody), signature);
  },
  body: eventSchema,
  notItsShape: "not a Provider A transaction, refund or dispute notification",
  idInBody: { of: (event) => event.event_id, differs: "event_id differs from X-A-Event-Id" },
  report: (event) =>
    event.type === "dispute.updated"
      ? { about: "dispute", providerReference: event.dispute.dispute_id, dispute: disputeReportOf(event.dispute) }
      : event.type === "refund.updated"
        ? { about: "refund", providerReference: event.refund.refund_id, merchantReference: event.refund.request_id, outcome: refundOutcomeOf(event.refund) }
        : {
            about: "attempt",
            providerReference: event.transaction.transaction_id,
            merchantReference: event.transaction.request_id,
            outcome: outcomeOf(event.transaction),
          },
};

export const providerACallbacks: ProviderCallbacks = {
  headers: Object.values(A_CALLBACK_HEADERS),
  eventFromRecord(record) {
    if (record.operation === REFUND_OPERATION) return refundFromRecord(record);
    if (record.operation === DISPUTE_OPERATION) return disputeFromRecord(record);
    const { redirect_url: _redirect, ...transaction } = answerFromRecord(record);
    return transaction;
  },
  sign({ event, notificationId, timestamp }) {
    const createdAt = new Date(timestamp * 1000).toISOString();
    const rawBody = JSON.stringify(
      aDisputeSchema.safeParse(event).success
        ? { event_id: notificationId, type: "dispute.updated", created_at: createdAt, dispute: event }
        : aRefundAnswerSchema.safeParse(event).success
          ? { event_id: notificationId, type: "refund.updated", created_at: createdAt, refund: event }
          : { event_id: notificationId, type: "transaction.updated", created_at: createdAt, transaction: event },
    );
    const signature = signEd25519(sandboxCallbackKeyPair(SLUG).privateKey, callbackSigningText(notificationId, timestamp, rawBody));
    return {
      headers: {
        "content-type": "application/json",
        [A_CALLBACK_HEADERS.eventId]: notificationId,
        [A_CALLBACK_HEADERS.timestamp]: String(timestamp),
        [A_CALLBACK_HEADERS.signature]: signature,
      },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
