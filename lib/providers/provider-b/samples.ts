import "server-only";
import { randomToken } from "../server/sample-values";
import type { ProviderSamples } from "../types";

export const providerBSamples: ProviderSamples = {
  slug: "provider-b",
  kinds: {
    h2h: () => ({ terminal_id: "TERM-7781", secret_key: randomToken(24), currency: "EUR" }),
  },
};
