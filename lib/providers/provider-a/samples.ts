import type { ProviderSamples } from "../types";

/**
 * The key pair is one for every sample (making one is slow), so the merchant ID is what tells the
 * sandbox that two sample connections are two accounts.
 */
export const providerASamples: ProviderSamples = {
  provider_account: (_mode, make) => ({
    merchant_id: `A-100200-${make.uuid().slice(0, 8)}`,
    payment_key: make.keyPair().publicKeyPem,
    private_key: make.keyPair().privateKeyPem,
    service_code: "SVC-01",
  }),
  h2h: (_mode, make) => ({
    merchant_id: `A-100300-${make.uuid().slice(0, 8)}`,
    payment_key: make.keyPair().publicKeyPem,
    private_key: make.keyPair().privateKeyPem,
    service_code: "SVC-02",
    api_type: "payment_page",
    currency: "UAH",
    features: ["payments", "payouts"],
  }),
};
