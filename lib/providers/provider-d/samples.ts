import type { ProviderSamples } from "../types";

export const providerDSamples: ProviderSamples = {
  h2h: (_mode, make) => ({
    api_key: make.token(24),
    secret_key: make.token(24),
    api_url: "https://api.provider-d.example/v1",
    merchant_id: "D-5501",
    service_id: "D-SVC-9",
    currency: "UZS",
    send_merchant_data: true,
    merchant_category_code: "5411",
    merchant_url: "https://shop.example.com",
    p2p: false,
    features: ["payments"],
  }),
};
