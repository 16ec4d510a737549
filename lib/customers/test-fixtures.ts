import { getKind } from "@/lib/providers";
import type { ConstantSpec } from "@/lib/providers/types";

// The registry's own lists (spec 2.5, 2.6): the tests below assert their targets one by one.
function constantsOf(provider: string, kind: "provider_account" | "h2h"): readonly ConstantSpec[] {
  const spec = getKind(provider, kind);
  if (!spec) throw new Error(`registry has no ${provider}/${kind}`);
  return spec.constants;
}

export const PROVIDER_A_CONSTANTS = constantsOf("provider-a", "provider_account");
export const PROVIDER_B_CONSTANTS = constantsOf("provider-b", "h2h");
export const PROVIDER_F_CONSTANTS = constantsOf("provider-f", "h2h");

export const PROVIDER_B_DEFAULTS: Readonly<Record<string, string>> = getKind("provider-b", "h2h")?.defaults ?? {};

/** A valid sample value per constant name, shaped to its format. */
export const SAMPLE_VALUES: Readonly<Record<string, string>> = {
  STREET: "1 Main St",
  COUNTRY: "DE",
  CITY: "Berlin",
  NAME: "Ada Lovelace",
  FULL_ADDRESS: "1 Main St, Berlin",
  REGION: "Brandenburg",
  POST_CODE: "10115",
  EMAIL: "ada@example.com",
  PHONE: "+4930123456",
  LANG: "de",
  FIRST_NAME: "Ada",
  LAST_NAME: "Lovelace",
  DATE_OF_BIRTH: "1990-04-21",
  COUNTRY_PHONE_CODE: "+49",
};

export function envelope(customer: unknown, extraAttributes: Record<string, unknown> = {}) {
  return { type: "payment-invoice", attributes: { service: "payment_card_eur_hpp", customer, ...extraAttributes } };
}
