import type { ProviderSamples } from "../types";

export const providerFSamples: ProviderSamples = {
  // Spec 5.2: the key prefixes follow the mode (dev_ for test, prod_ for live).
  h2h: (mode, make) => {
    const family = mode === "test" ? "dev" : "prod";
    return {
      public_key: `${family}_pub_${make.uuid()}`,
      secret_key: `${family}_sec_${make.token(32)}`,
      currency: "EUR",
    };
  },
};
