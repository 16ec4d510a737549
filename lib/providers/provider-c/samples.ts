import "server-only";
import { randomToken } from "../server/sample-values";
import type { ProviderSamples } from "../types";

export const providerCSamples: ProviderSamples = {
  slug: "provider-c",
  kinds: {
    provider_account: () => ({ shop_login: "demo-shop", shop_password: randomToken(16) }),
    h2h: () => ({ shop_login: "demo-shop-amd", shop_password: randomToken(16), currency: "AMD" }),
  },
};
