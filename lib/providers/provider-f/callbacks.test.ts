import { callbackSchemeContract } from "@/tests/fixtures/callback-scheme-contract";
import { providerFCallbacks } from "./callbacks";

callbackSchemeContract({
  slug: "provider-f",
  callbacks: providerFCallbacks,
  credentials: { public_key: "dev_pk_1", secret_key: "dev_sk_one" },
  otherCredentials: { public_key: "dev_pk_1", secret_key: "dev_sk_two" },
  event: { id: "ch_1", object: "charge", status: "succeeded", amount: 5000, amount_captured: 5000, currency: "eur", livemode: false, reference: "att_1" },
  expected: {
    about: "attempt",
    merchantReference: "att_1",
    providerReference: "ch_1",
    outcome: { kind: "succeeded", providerReference: "ch_1", processedAmountMinor: 5000n },
  },
});

callbackSchemeContract({
  slug: "provider-f",
  callbacks: providerFCallbacks,
  credentials: { public_key: "dev_pk_1", secret_key: "dev_sk_one" },
  otherCredentials: { public_key: "dev_pk_1", secret_key: "dev_sk_two" },
  event: {
    id: "re_1",
    object: "refund",
    status: "failed",
    amount: 1000,
    currency: "eur",
    charge: "ch_1",
    reference: "rf_1",
    livemode: false,
    failure_code: "refund_declined",
    failure_message: "The issuer refused to take the money back.",
  },
  expected: {
    about: "refund",
    merchantReference: "rf_1",
    providerReference: "re_1",
    outcome: {
      kind: "declined",
      providerReference: "re_1",
      message: "Provider F declined the refund (refund_declined: The issuer refused to take the money back.)",
    },
  },
});

// Disputes: F's reason and status read as the service's reason and status; its lower-case currency as ISO.
callbackSchemeContract({
  slug: "provider-f",
  callbacks: providerFCallbacks,
  credentials: { public_key: "dev_pk_1", secret_key: "dev_sk_one" },
  otherCredentials: { public_key: "dev_pk_1", secret_key: "dev_sk_two" },
  event: {
    id: "dp_1",
    object: "dispute",
    charge: "ch_1",
    charge_reference: "att_1",
    status: "needs_response",
    reason: "fraudulent",
    amount: 5000,
    currency: "eur",
    evidence_details: { due_by: 1_927_000_000 },
  },
  expected: {
    about: "dispute",
    providerReference: "dp_1",
    dispute: {
      disputeReference: "dp_1",
      paymentReference: "ch_1",
      paymentKey: "att_1",
      amountMinor: 5_000n,
      currency: "EUR",
      reason: "fraudulent",
      providerReason: "fraudulent",
      status: "needs_response",
      evidenceDueBy: new Date(1_927_000_000_000),
    },
  },
});
