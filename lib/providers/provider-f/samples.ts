import "server-only";
import { randomUUID } from "node:crypto";
import { randomToken } from "../server/sample-values";
import type { ProviderSamples } from "../types";

export const providerFSamples: ProviderSamples = {
  slug: "provider-f",
  kinds: {
    // Spec 5.2: the key prefixes follow the mode (dev_ for test, prod_ for live).
    h2h: (mode) => {
      const family = mode === "test" ? "dev" : "prod";
      return {
        public_key: `${family}_pub_${randomUUID()}`,
        secret_key: `${family}_sec_${randomToken(32)}`,
        test_mode: mode === "test",
        currency: "EUR",
      };
    },
  },
};
