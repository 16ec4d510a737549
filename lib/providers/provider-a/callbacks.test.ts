import { callbackSchemeContract } from "@/tests/fixtures/callback-scheme-contract";
import { providerACallbacks } from "./callbacks";

const UNTIL = "2031-01-08T10:00:00.000Z";

callbackSchemeContract({
  slug: "provider-a",
  callbacks: providerACallbacks,
  credentials: { merchant_id: "A-1001" },
  event: {
    status: "completed",
    transaction_id: "A-PX-1",
    request_id: "att_1",
    currency: "UAH",
    amount_processed: "15000.00",
    parts: [
      { part_reference: "A-PO-1", amount: "5000.00", status: "paid" },
      { part_reference: "A-PO-2", amount: "10000.00", status: "paid" },
    ],
  },
  expected: {
    about: "attempt",
    merchantReference: "att_1",
    providerReference: "A-PX-1",
    outcome: {
      kind: "succeeded",
      providerReference: "A-PX-1",
      processedAmountMinor: 1_500_000n,
      parts: [
        { providerReference: "A-PO-1", amountMinor: 500_000n, status: "succeeded" },
        { providerReference: "A-PO-2", amountMinor: 1_000_000n, status: "succeeded" },
      ],
    },
  },
});

callbackSchemeContract({
  slug: "provider-a",
  callbacks: providerACallbacks,
  credentials: { merchant_id: "A-1001" },
  event: {
    status: "declined",
    refund_id: "A-RF-1",
    request_id: "rf_1",
    transaction_id: "A-T-1",
    amount_refunded: "10.00",
    currency: "EUR",
    decline_code: "57",
    decline_reason: "Refund not permitted by the issuer",
  },
  expected: {
    about: "refund",
    merchantReference: "rf_1",
    providerReference: "A-RF-1",
    outcome: { kind: "declined", providerReference: "A-RF-1", message: "Refund not permitted by the issuer" },
  },
});

// Authorize now, capture later: an authorization's notification carries what is reserved and until when.
callbackSchemeContract({
  slug: "provider-a",
  callbacks: providerACallbacks,
  credentials: { merchant_id: "A-1001" },
  event: {
    status: "authorized",
    transaction_id: "A-TX-9",
    request_id: "att_9",
    currency: "UAH",
    amount_authorized: "100.00",
    amount_processed: "0.00",
    authorization_expires_at: UNTIL,
  },
  expected: {
    about: "attempt",
    merchantReference: "att_9",
    providerReference: "A-TX-9",
    outcome: { kind: "succeeded", providerReference: "A-TX-9", processedAmountMinor: 10_000n, authorized: { until: new Date(UNTIL) } },
  },
});

// Disputes: the scheme's reason code and A's status read as the service's reason and status.
const DUE = "2031-02-01T00:00:00.000Z";
callbackSchemeContract({
  slug: "provider-a",
  callbacks: providerACallbacks,
  credentials: { merchant_id: "A-1001" },
  event: {
    dispute_id: "A-DP-1",
    transaction_id: "A-TX-1",
    request_id: "att_1",
    status: "in_review",
    reason_code: "10.4",
    amount_disputed: "150.00",
    currency: "UAH",
    evidence_due_at: DUE,
  },
  expected: {
    about: "dispute",
    providerReference: "A-DP-1",
    dispute: {
      disputeReference: "A-DP-1",
      paymentReference: "A-TX-1",
      paymentKey: "att_1",
      amountMinor: 15_000n,
      currency: "UAH",
      reason: "fraudulent",
      providerReason: "10.4",
      status: "under_review",
      evidenceDueBy: new Date(DUE),
    },
  },
});
