import "server-only";
import { z } from "zod";
import { signEd25519, unixSeconds, verifyEd25519 } from "@/lib/providers/kit/callback-scheme";
import { refuseCallback, verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { providerCallbackPublicKey, sandboxCallbackKeyPair } from "@/lib/sandbox/callback-keys";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { DISPUTE_OPERATION } from "@/lib/sandbox/disputes";
import { disputeReportOf, outcomeOfPayment, refundOutcomeOf } from "./mapping";
import { presentDispute } from "./sandbox/disputes";
import { presentPayment, SLUG } from "./sandbox/payments";
import { presentRefund } from "./sandbox/refunds";
import {
  callbackSignatureHeader,
  callbackSigningText,
  E_CALLBACK_HEADERS,
  E_RESULT_CODES,
  eDisputeSchema,
  eRefundAnswerSchema,
  readCallbackSignature,
} from "./wire";

/**
 * Provider E's notifications: `{ notificationId, eventCode: "PAYMENT_UPDATE", eventDate, payment }`,
 * the payment as E's API gives it. E signs with its own key (./wire.ts), which the service verifies
 * with E's public key (`lib/sandbox/callback-keys.ts`). A refund's outcome comes the same way with
 * `eventCode: "REFUND_UPDATE"` and `refund`, the refund as E's API gives it (`merchantReference` is
 * the service's refund id), and a dispute's with `eventCode: "DISPUTE_UPDATE"` and `dispute`, the
 * dispute as E's API gives it.
 *
 * Whether a verified notification may change anything is the connection's `ignore_callback`
 * (spec 6), decided where callbacks are received (`lib/callbacks/receive.ts`), not here.
 */

const amountSchema = z.object({ value: z.string(), currency: z.string().length(3) });

const paymentSchema = z.object({
  paymentId: z.string().min(1),
  merchantReference: z.string(),
  resultCode: z.enum(E_RESULT_CODES),
  refusalReason: z.string().optional(),
  amount: amountSchema,
  capturedAmount: amountSchema,
  captureMode: z.literal("manual").optional(),
  authorisedAmount: amountSchema.optional(),
  authorisationExpiresAt: z.string().optional(),
});

const head = { notificationId: z.string().min(1), eventDate: z.string() };
const eventSchema = z.discriminatedUnion("eventCode", [
  z.object({ ...head, eventCode: z.literal("PAYMENT_UPDATE"), payment: paymentSchema }),
  z.object({ ...head, eventCode: z.literal("REFUND_UPDATE"), refund: eRefundAnswerSchema }),
  z.object({ ...head, eventCode: z.literal("DISPUTE_UPDATE"), dispute: eDisputeSchema }),
]);

const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read: (headers) => ({
    id: headers.get(E_CALLBACK_HEADERS.id) ?? "",
    timestamp: unixSeconds(headers.get(E_CALLBACK_HEADERS.timestamp)),
    signature: readCallbackSignature(headers.get(E_CALLBACK_HEADERS.signature)),
  }),
  verify({ id, timestamp, signature, rawBody }, _credentials, { mode }) {
    const key = providerCallbackPublicKey(SLUG, mode);
    if (!key.ok) return refuseCallback("no_verification_key", key.reason);
    return verifyEd25519(key.key, callbackSigningText(id, timestamp, rawBody), signature);
  },
  body: eventSchema,
  notItsShape: "not a Provider E payment, refund or dispute notification",
  idInBody: { of: (event) => event.notificationId, differs: "notificationId differs from X-E-Notification-Id" },
  report: (event) =>
    event.eventCode === "DISPUTE_UPDATE"
      ? { about: "dispute", providerReference: event.dispute.disputeId, dispute: disputeReportOf(event.dispute) }
      : event.eventCode === "REFUND_UPDATE"
        ? {
            about: "refund",
            providerReference: event.refund.refundId,
            merchantReference: event.refund.merchantReference,
            outcome: refundOutcomeOf(event.refund),
          }
        : {
            about: "attempt",
            providerReference: event.payment.paymentId,
            ...(event.payment.merchantReference ? { merchantReference: event.payment.merchantReference } : {}),
            outcome: outcomeOfPayment(event.payment),
          },
};

export const providerECallbacks: ProviderCallbacks = {
  headers: Object.values(E_CALLBACK_HEADERS),
  eventFromRecord(record) {
    if (record.operation === REFUND_OPERATION) return presentRefund(record);
    if (record.operation === DISPUTE_OPERATION) return presentDispute(record);
    const { action: _action, ...payment } = presentPayment(record).body as Record<string, unknown>;
    return payment;
  },
  sign({ event, notificationId, timestamp }) {
    const eventDate = new Date(timestamp * 1000).toISOString();
    const rawBody = JSON.stringify(
      eDisputeSchema.safeParse(event).success
        ? { notificationId, eventCode: "DISPUTE_UPDATE", eventDate, dispute: event }
        : eRefundAnswerSchema.safeParse(event).success
          ? { notificationId, eventCode: "REFUND_UPDATE", eventDate, refund: event }
          : { notificationId, eventCode: "PAYMENT_UPDATE", eventDate, payment: event },
    );
    const signature = signEd25519(sandboxCallbackKeyPair(SLUG).privateKey, callbackSigningText(notificationId, timestamp, rawBody));
    return {
      headers: {
        "content-type": "application/json",
        [E_CALLBACK_HEADERS.id]: notificationId,
        [E_CALLBACK_HEADERS.timestamp]: String(timestamp),
        [E_CALLBACK_HEADERS.signature]: callbackSignatureHeader(signature),
      },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
