import type { ProviderSamples } from "../types";

export const providerCSamples: ProviderSamples = {
  provider_account: (_mode, make) => ({ shop_login: "demo-shop", shop_password: make.token(16) }),
  h2h: (_mode, make) => ({ shop_login: "demo-shop-amd", shop_password: make.token(16), currency: "AMD" }),
};
