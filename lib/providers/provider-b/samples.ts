import type { ProviderSamples } from "../types";

export const providerBSamples: ProviderSamples = {
  h2h: (_mode, make) => ({ terminal_id: "TERM-7781", secret_key: make.token(24), currency: "EUR" }),
};
