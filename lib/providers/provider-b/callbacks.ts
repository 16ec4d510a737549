import "server-only";
import { z } from "zod";
import { credentialText, sameText } from "@/lib/providers/kit/callback-scheme";
import { verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { DISPUTE_OPERATION } from "@/lib/sandbox/disputes";
import { disputeReportOf, outcomeOf, refundOutcomeOf } from "./mapping";
import { disputeFromRecord } from "./sandbox/disputes";
import { answerFromRecord } from "./sandbox/charges";
import { refundFromRecord } from "./sandbox/refunds";
import { B_CALLBACK_HEADERS, B_RESULTS, bDigest, bDisputeSchema, bRefundAnswerSchema, readSignatureHeader, signatureHeader } from "./wire";

/**
 * Provider B's charge notifications: a POST of the charge as its status endpoint would give it,
 * flat and string-valued like the rest of B's API, signed with the terminal's secret key (./wire.ts).
 * A refund's outcome comes the same way, `event: "refund.updated"` with the refund as
 * `GET /v1/refunds/{refund_ref}` answers it (`refund_ref` is the service's refund id), and a
 * dispute's as `event: "dispute.updated"` with the dispute as `GET /v1/disputes/{dispute_txn}` answers it.
 */

const chargeEventSchema = z.object({
  event: z.literal("charge.updated"),
  txn: z.string().min(1),
  order_ref: z.string().min(1),
  result: z.enum(B_RESULTS),
  cur: z.string().length(3),
  captured_sum: z.string().optional(),
  error_code: z.string().optional(),
  error_text: z.string().optional(),
  // An authorization (`result: "auth"`): what is reserved and until when.
  authorized_sum: z.string().optional(),
  auth_until: z.string().optional(),
});

const eventSchema = z.discriminatedUnion("event", [
  chargeEventSchema,
  bRefundAnswerSchema.extend({ event: z.literal("refund.updated") }),
  bDisputeSchema.extend({ event: z.literal("dispute.updated") }),
]);

const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read(headers) {
    const { timestamp, digest } = readSignatureHeader(headers.get(B_CALLBACK_HEADERS.signature) ?? "");
    return { id: headers.get(B_CALLBACK_HEADERS.id) ?? "", timestamp, signature: digest };
  },
  verify({ id, timestamp, signature, rawBody }, credentials) {
    const secret = credentialText(credentials, "secret_key");
    return secret !== "" && sameText(bDigest(secret, timestamp, id, rawBody), signature);
  },
  body: eventSchema,
  notItsShape: "not a Provider B charge, refund or dispute notification",
  report: (event) => {
    if (event.event === "dispute.updated") return { about: "dispute", providerReference: event.dispute_txn, dispute: disputeReportOf(event) };
    return event.event === "refund.updated"
      ? { about: "refund", providerReference: event.refund_txn, merchantReference: event.refund_ref, outcome: refundOutcomeOf(event) }
      : { about: "attempt", providerReference: event.txn, merchantReference: event.order_ref, outcome: outcomeOf(event) };
  },
};

export const providerBCallbacks: ProviderCallbacks = {
  headers: Object.values(B_CALLBACK_HEADERS),
  eventFromRecord(record) {
    if (record.operation === REFUND_OPERATION) return { event: "refund.updated", ...refundFromRecord(record) };
    if (record.operation === DISPUTE_OPERATION) return { event: "dispute.updated", ...disputeFromRecord(record) };
    const answer = answerFromRecord(record);
    return {
      event: "charge.updated",
      txn: answer.txn,
      order_ref: answer.order_ref,
      result: answer.result,
      sum: answer.sum,
      cur: answer.cur,
      captured_sum: answer.captured_sum,
      error_code: answer.error_code,
      error_text: answer.error_text,
      authorized_sum: answer.authorized_sum,
      auth_until: answer.auth_until,
    };
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const rawBody = JSON.stringify(event);
    const digest = bDigest(credentialText(credentials, "secret_key"), timestamp, notificationId, rawBody);
    return {
      headers: {
        "content-type": "application/json",
        [B_CALLBACK_HEADERS.id]: notificationId,
        [B_CALLBACK_HEADERS.signature]: signatureHeader(timestamp, digest),
      },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
