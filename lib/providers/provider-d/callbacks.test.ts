import { callbackSchemeContract } from "@/tests/fixtures/callback-scheme-contract";
import { providerDCallbacks } from "./callbacks";

callbackSchemeContract({
  slug: "provider-d",
  callbacks: providerDCallbacks,
  credentials: { merchant_id: "D-1", api_key: "ak", secret_key: "sk_d_one" },
  otherCredentials: { merchant_id: "D-1", api_key: "ak", secret_key: "sk_d_two" },
  event: {
    transaction_id: "att_1",
    payment_id: "dpay_1",
    state: 2,
    amount: 15_000_000,
    captured_amount: 15_000_000,
    currency: "860",
    channel: "merchant",
    reject_code: null,
    card_mask: "424242******4242",
  },
  expected: {
    about: "attempt",
    merchantReference: "att_1",
    providerReference: "dpay_1",
    outcome: { kind: "succeeded", providerReference: "dpay_1", processedAmountMinor: 15_000_000n },
  },
});

callbackSchemeContract({
  slug: "provider-d",
  callbacks: providerDCallbacks,
  credentials: { merchant_id: "D-1", api_key: "ak", secret_key: "sk_d_one" },
  otherCredentials: { merchant_id: "D-1", api_key: "ak", secret_key: "sk_d_two" },
  event: { transaction_id: "rf_1", refund_id: "drf_1", payment_id: "dpay_1", state: 2, amount: 500_000, currency: "860", reject_code: null },
  expected: { about: "refund", merchantReference: "rf_1", providerReference: "drf_1", outcome: { kind: "succeeded", providerReference: "drf_1" } },
});

// Disputes: D's numeric state and reason code read as the service's status and reason; tiyin, currency by number.
callbackSchemeContract({
  slug: "provider-d",
  callbacks: providerDCallbacks,
  credentials: { merchant_id: "D-1", api_key: "ak", secret_key: "sk_d_one" },
  otherCredentials: { merchant_id: "D-1", api_key: "ak", secret_key: "sk_d_two" },
  event: {
    dispute_id: "ddsp_1",
    payment_id: "dpay_1",
    transaction_id: "att_1",
    state: 5,
    reason_code: 4834,
    amount: 15_000_000,
    currency: "860",
    respond_by: 1_927_000_000,
  },
  expected: {
    about: "dispute",
    providerReference: "ddsp_1",
    dispute: {
      disputeReference: "ddsp_1",
      paymentReference: "dpay_1",
      paymentKey: "att_1",
      amountMinor: 15_000_000n,
      currency: "UZS",
      reason: "duplicate",
      providerReason: "4834",
      status: "won",
      evidenceDueBy: new Date(1_927_000_000_000),
    },
  },
});
