import type { ProviderSamples } from "../types";

export const providerASamples: ProviderSamples = {
  provider_account: (_mode, make) => ({
    merchant_id: "A-100200",
    payment_key: make.keyPair().publicKeyPem,
    private_key: make.keyPair().privateKeyPem,
    service_code: "SVC-01",
  }),
  h2h: (_mode, make) => ({
    merchant_id: "A-100300",
    payment_key: make.keyPair().publicKeyPem,
    private_key: make.keyPair().privateKeyPem,
    service_code: "SVC-02",
    api_type: "payment_page",
    currency: "UAH",
    features: ["payments", "payouts"],
  }),
};
