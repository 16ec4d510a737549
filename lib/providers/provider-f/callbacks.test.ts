import { callbackSchemeContract } from "@/tests/fixtures/callback-scheme-contract";
import { providerFCallbacks } from "./callbacks";

callbackSchemeContract({
  slug: "provider-f",
  callbacks: providerFCallbacks,
  credentials: { public_key: "dev_pk_1", secret_key: "dev_sk_one" },
  otherCredentials: { public_key: "dev_pk_1", secret_key: "dev_sk_two" },
  event: { id: "ch_1", object: "charge", status: "succeeded", amount: 5000, amount_captured: 5000, currency: "eur", livemode: false, reference: "att_1" },
  expected: { merchantReference: "att_1", providerReference: "ch_1", outcome: { kind: "succeeded", providerReference: "ch_1", processedAmountMinor: 5000n } },
});
