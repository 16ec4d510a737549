import "server-only";
import { sampleKeyPair } from "../server/sample-values";
import type { ProviderSamples } from "../types";

export const providerESamples: ProviderSamples = {
  slug: "provider-e",
  kinds: {
    h2h: () => ({
      merchant_id: "E-4410",
      public_key: sampleKeyPair().publicKeyPem,
      private_key: sampleKeyPair().privateKeyPem,
      currency: "EUR",
      ignore_callback: false,
    }),
  },
};
