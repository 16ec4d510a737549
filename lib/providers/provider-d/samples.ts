import "server-only";
import { randomToken } from "../server/sample-values";
import type { ProviderSamples } from "../types";

export const providerDSamples: ProviderSamples = {
  slug: "provider-d",
  kinds: {
    h2h: () => ({
      api_key: randomToken(24),
      secret_key: randomToken(24),
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
  },
};
