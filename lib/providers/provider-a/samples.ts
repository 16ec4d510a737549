import "server-only";
import { sampleKeyPair } from "../server/sample-values";
import type { ProviderSamples } from "../types";

export const providerASamples: ProviderSamples = {
  slug: "provider-a",
  kinds: {
    provider_account: () => ({
      merchant_id: "A-100200",
      payment_key: sampleKeyPair().publicKeyPem,
      private_key: sampleKeyPair().privateKeyPem,
      service_code: "SVC-01",
    }),
    h2h: () => ({
      merchant_id: "A-100300",
      payment_key: sampleKeyPair().publicKeyPem,
      private_key: sampleKeyPair().privateKeyPem,
      service_code: "SVC-02",
      api_type: "payment_page",
      currency: "UAH",
      features: ["payments", "payouts"],
    }),
  },
};
