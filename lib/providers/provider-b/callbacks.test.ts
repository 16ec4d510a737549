import { callbackSchemeContract } from "@/tests/fixtures/callback-scheme-contract";
import { providerBCallbacks } from "./callbacks";

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
