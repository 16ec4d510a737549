import { callbackSchemeContract } from "@/tests/fixtures/callback-scheme-contract";
import { providerBCallbacks } from "./callbacks";

const UNTIL = "2031-01-08T10:00:00.000Z";

callbackSchemeContract({
  slug: "provider-b",
  callbacks: providerBCallbacks,
  credentials: { terminal_id: "T-1", secret_key: "sk_b_one" },
  otherCredentials: { terminal_id: "T-1", secret_key: "sk_b_two" },
  event: { event: "charge.updated", txn: "B01", order_ref: "att_1", result: "partial", sum: "100.50", cur: "UAH", captured_sum: "75.37" },
  expected: {
    about: "attempt",
    merchantReference: "att_1",
    providerReference: "B01",
    outcome: { kind: "succeeded", providerReference: "B01", processedAmountMinor: 7_537n },
  },
});

callbackSchemeContract({
  slug: "provider-b",
  callbacks: providerBCallbacks,
  credentials: { terminal_id: "T-1", secret_key: "sk_b_one" },
  otherCredentials: { terminal_id: "T-1", secret_key: "sk_b_two" },
  event: { event: "refund.updated", result: "ok", refund_txn: "B-RF-1", refund_ref: "rf_1", txn: "B01", sum: "25.00", cur: "UAH" },
  expected: { about: "refund", merchantReference: "rf_1", providerReference: "B-RF-1", outcome: { kind: "succeeded", providerReference: "B-RF-1" } },
});

// Authorize now, capture later: an authorization's notification carries what is reserved and until when.
callbackSchemeContract({
  slug: "provider-b",
  callbacks: providerBCallbacks,
  credentials: { terminal_id: "T-1", secret_key: "sk_b_one" },
  otherCredentials: { terminal_id: "T-1", secret_key: "sk_b_two" },
  event: { event: "charge.updated", txn: "B09", order_ref: "att_9", result: "auth", sum: "100.00", cur: "EUR", authorized_sum: "100.00", auth_until: UNTIL },
  expected: {
    about: "attempt",
    merchantReference: "att_9",
    providerReference: "B09",
    outcome: { kind: "succeeded", providerReference: "B09", processedAmountMinor: 10_000n, authorized: { until: new Date(UNTIL) } },
  },
});

// Disputes: B's reason code and result read as the service's reason and status.
const DUE = "2031-02-01T00:00:00.000Z";
callbackSchemeContract({
  slug: "provider-b",
  callbacks: providerBCallbacks,
  credentials: { terminal_id: "T-1", secret_key: "sk_b_one" },
  otherCredentials: { terminal_id: "T-1", secret_key: "sk_b_two" },
  event: {
    event: "dispute.updated",
    result: "open",
    dispute_txn: "dpB01",
    txn: "B01",
    order_ref: "att_1",
    sum: "100.50",
    cur: "EUR",
    reason_code: "goods_not_received",
    respond_by: DUE,
  },
  expected: {
    about: "dispute",
    providerReference: "dpB01",
    dispute: {
      disputeReference: "dpB01",
      paymentReference: "B01",
      paymentKey: "att_1",
      amountMinor: 10_050n,
      currency: "EUR",
      reason: "not_received",
      providerReason: "goods_not_received",
      status: "needs_response",
      evidenceDueBy: new Date(DUE),
    },
  },
});
