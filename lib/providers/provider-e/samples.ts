import type { ProviderSamples } from "../types";

/** One key pair for every sample (making one is slow): the merchant ID tells two sample accounts apart. */
export const providerESamples: ProviderSamples = {
  h2h: (_mode, make) => ({
    merchant_id: `E-4410-${make.uuid().slice(0, 8)}`,
    public_key: make.keyPair().publicKeyPem,
    private_key: make.keyPair().privateKeyPem,
    currency: "EUR",
    ignore_callback: false,
  }),
};
