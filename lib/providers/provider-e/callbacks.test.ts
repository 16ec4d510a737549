import { callbackSchemeContract } from "@/tests/fixtures/callback-scheme-contract";
import { providerECallbacks } from "./callbacks";

const UNTIL = "2031-01-08T10:00:00.000Z";

callbackSchemeContract({
  slug: "provider-e",
  callbacks: providerECallbacks,
  credentials: { merchant_id: "E-4410" },
  event: {
    paymentId: "epay_1",
    merchantReference: "att_1",
    resultCode: "Refused",
    refusalReason: "Not enough balance",
    amount: { value: "75.00", currency: "EUR" },
    capturedAmount: { value: "0.00", currency: "EUR" },
  },
  expected: {
    about: "attempt",
    merchantReference: "att_1",
    providerReference: "epay_1",
    outcome: { kind: "declined", resolution: "insufficient_funds", providerReference: "epay_1", message: "Provider E refused the payment: Not enough balance" },
  },
});

callbackSchemeContract({
  slug: "provider-e",
  callbacks: providerECallbacks,
  credentials: { merchant_id: "E-4410" },
  event: { refundId: "erf_1", paymentId: "epay_1", merchantReference: "rf_1", resultCode: "Refunded", amount: { value: "20.00", currency: "EUR" } },
  expected: { about: "refund", merchantReference: "rf_1", providerReference: "erf_1", outcome: { kind: "succeeded", providerReference: "erf_1" } },
});

// Authorize now, capture later: an authorization's notification carries what is reserved and until when.
callbackSchemeContract({
  slug: "provider-e",
  callbacks: providerECallbacks,
  credentials: { merchant_id: "E-4410" },
  event: {
    paymentId: "epay_9",
    merchantReference: "att_9",
    resultCode: "Authorised",
    amount: { value: "100.00", currency: "EUR" },
    capturedAmount: { value: "0.00", currency: "EUR" },
    captureMode: "manual",
    authorisedAmount: { value: "100.00", currency: "EUR" },
    authorisationExpiresAt: UNTIL,
  },
  expected: {
    about: "attempt",
    merchantReference: "att_9",
    providerReference: "epay_9",
    outcome: { kind: "succeeded", providerReference: "epay_9", processedAmountMinor: 10_000n, authorized: { until: new Date(UNTIL) } },
  },
});

// Disputes: E's status and reason code read as the service's status and reason.
const DUE = "2031-02-01T00:00:00.000Z";
callbackSchemeContract({
  slug: "provider-e",
  callbacks: providerECallbacks,
  credentials: { merchant_id: "E-4410" },
  event: {
    disputeId: "edsp_1",
    paymentId: "epay_1",
    paymentMerchantReference: "att_1",
    status: "Accepted",
    reasonCode: "CreditNotProcessed",
    amount: { value: "75.00", currency: "EUR" },
    defenseDueDate: DUE,
  },
  expected: {
    about: "dispute",
    providerReference: "edsp_1",
    dispute: {
      disputeReference: "edsp_1",
      paymentReference: "epay_1",
      paymentKey: "att_1",
      amountMinor: 7_500n,
      currency: "EUR",
      reason: "credit_not_processed",
      providerReason: "CreditNotProcessed",
      status: "accepted",
      evidenceDueBy: new Date(DUE),
    },
  },
});
