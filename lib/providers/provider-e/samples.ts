import type { ProviderSamples } from "../types";

export const providerESamples: ProviderSamples = {
  h2h: (_mode, make) => ({
    merchant_id: "E-4410",
    public_key: make.keyPair().publicKeyPem,
    private_key: make.keyPair().privateKeyPem,
    currency: "EUR",
    ignore_callback: false,
  }),
};
