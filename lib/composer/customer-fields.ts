/**
 * The customer fields the composer offers (spec 2.3), each with the providers whose examples show
 * it ("Seen with provider"), plus Provider F's constant targets under `address` and `constants`
 * (spec 2.5). Paths are relative to the customer object.
 */
export type CustomerFieldSpec = {
  path: string;
  label: string;
  input: "text" | "email" | "tel" | "date";
  help?: string;
  seenWith: readonly string[];
};

const A = "provider-a";
const B = "provider-b";
const E = "provider-e";
const F = "provider-f";

export const CUSTOMER_FIELDS: readonly CustomerFieldSpec[] = [
  { path: "reference_id", label: "Customer reference", input: "text", help: "Your own id of the customer.", seenWith: [A, B, E, F] },
  { path: "name", label: "Name", input: "text", seenWith: [A, B, E, F] },
  { path: "email", label: "E-mail", input: "email", seenWith: [B, E, F] },
  { path: "phone", label: "Phone", input: "tel", help: "International, with a leading +.", seenWith: [B, E, F] },
  { path: "date_of_birth", label: "Date of birth", input: "date", seenWith: [E, F] },
  { path: "address.country", label: "Country", input: "text", help: "Two-letter code in upper case, e.g. GB.", seenWith: [A, B, E, F] },
  { path: "address.city", label: "City", input: "text", seenWith: [A, B, E, F] },
  { path: "address.street", label: "Street", input: "text", seenWith: [A, F] },
  { path: "address.full_address", label: "Full address", input: "text", seenWith: [B, E, F] },
  { path: "address.region", label: "Region", input: "text", seenWith: [B, F] },
  { path: "address.post_code", label: "Post code", input: "text", seenWith: [B, F] },
  { path: "address.first_name", label: "First name", input: "text", help: "Sent as address.first_name, where Provider F reads it (spec 2.5).", seenWith: [F] },
  { path: "address.last_name", label: "Last name", input: "text", help: "Sent as address.last_name, where Provider F reads it.", seenWith: [F] },
  { path: "address.email", label: "Address e-mail", input: "email", help: "Sent as address.email, where Provider F reads the e-mail.", seenWith: [F] },
  { path: "address.phone", label: "Address phone", input: "tel", help: "Sent as address.phone, where Provider F reads the phone.", seenWith: [F] },
  {
    path: "constants.customer_country_phone_code",
    label: "Country phone code",
    input: "tel",
    help: "Sent as constants.customer_country_phone_code, e.g. +44 (Provider F).",
    seenWith: [F],
  },
];

/** The general fields of spec 2.3, offered for providers whose examples show no customer (C, D). */
const GENERAL = CUSTOMER_FIELDS.filter((field) => field.seenWith.length > 1);

export function customerFieldsFor(provider: string | undefined): readonly CustomerFieldSpec[] {
  const seen = CUSTOMER_FIELDS.filter((field) => provider !== undefined && field.seenWith.includes(provider));
  return seen.length > 0 ? seen : GENERAL;
}

export const CUSTOMER_FIELD_PATHS: readonly string[] = CUSTOMER_FIELDS.map((field) => field.path);
