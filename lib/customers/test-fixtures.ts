import type { ConstantFormat, ConstantSpec } from "@/lib/providers/types";

// Mirrors the spec 2.5 table for tests only; the real lists live in the provider registry.
function specs(rows: readonly [string, string, ConstantFormat][]): ConstantSpec[] {
  return rows.map(([name, target, format]) => ({ name, target, label: name, format }));
}

export const PROVIDER_A_CONSTANTS = specs([
  ["STREET", "customer.address.street", "text"],
  ["COUNTRY", "customer.address.country", "country"],
  ["CITY", "customer.address.city", "text"],
  ["NAME", "customer.name", "text"],
]);

export const PROVIDER_B_CONSTANTS = specs([
  ["FULL_ADDRESS", "customer.address.full_address", "text"],
  ["REGION", "customer.address.region", "text"],
  ["COUNTRY", "customer.address.country", "country"],
  ["CITY", "customer.address.city", "text"],
  ["POST_CODE", "customer.address.post_code", "text"],
  ["EMAIL", "customer.email", "email"],
  ["NAME", "customer.name", "text"],
  ["PHONE", "customer.phone", "phone"],
  ["LANG", "language", "language"],
]);

export const PROVIDER_F_CONSTANTS = specs([
  ["FIRST_NAME", "customer.address.first_name", "text"],
  ["LAST_NAME", "customer.address.last_name", "text"],
  ["EMAIL", "customer.address.email", "email"],
  ["DATE_OF_BIRTH", "customer.date_of_birth", "date_of_birth"],
  ["COUNTRY", "customer.address.country", "country"],
  ["CITY", "customer.address.city", "text"],
  ["REGION", "customer.address.region", "text"],
  ["FULL_ADDRESS", "customer.address.full_address", "text"],
  ["POST_CODE", "customer.address.post_code", "text"],
  ["COUNTRY_PHONE_CODE", "customer.constants.customer_country_phone_code", "phone_country_code"],
  ["PHONE", "customer.address.phone", "phone"],
]);

/** Spec 2.6 names four values and withholds five; the withheld ones are stand-ins here. */
export const PROVIDER_B_DEFAULTS: Readonly<Record<string, string>> = {
  "customer.address.country": "GB",
  "customer.address.city": "London",
  "customer.address.region": "Northeast",
  language: "en",
  "customer.address.full_address": "default full address",
  "customer.address.post_code": "default post code",
  "customer.email": "default@example.com",
  "customer.name": "Default Name",
  "customer.phone": "+440000000000",
};

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
