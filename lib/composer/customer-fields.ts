import { getProvider } from "@/lib/providers";

/**
 * The customer fields the composer offers: the general ones of spec 2.3, then the targets of
 * connection constants inside the customer that 2.3 does not list (spec 2.5). Paths are relative
 * to the customer object. Which of them a provider's examples show is declared in its folder
 * (`examples.customerFields`).
 */
export type CustomerFieldSpec = {
  path: string;
  label: string;
  input: "text" | "email" | "tel" | "date";
  help?: string;
};

/** Spec 2.3: offered as they are for providers whose examples show no customer. */
const GENERAL_FIELDS: readonly CustomerFieldSpec[] = [
  { path: "reference_id", label: "Customer reference", input: "text", help: "Your own id of the customer." },
  { path: "name", label: "Name", input: "text" },
  { path: "email", label: "E-mail", input: "email" },
  { path: "phone", label: "Phone", input: "tel", help: "International, with a leading +." },
  { path: "date_of_birth", label: "Date of birth", input: "date" },
  { path: "address.country", label: "Country", input: "text", help: "Two-letter code in upper case, e.g. GB." },
  { path: "address.city", label: "City", input: "text" },
  { path: "address.street", label: "Street", input: "text" },
  { path: "address.full_address", label: "Full address", input: "text" },
  { path: "address.region", label: "Region", input: "text" },
  { path: "address.post_code", label: "Post code", input: "text" },
];

const CONSTANT_TARGET_FIELDS: readonly CustomerFieldSpec[] = [
  { path: "address.first_name", label: "First name", input: "text", help: "Sent as address.first_name, where the FIRST_NAME constant goes." },
  { path: "address.last_name", label: "Last name", input: "text", help: "Sent as address.last_name, where the LAST_NAME constant goes." },
  { path: "address.email", label: "Address e-mail", input: "email", help: "Sent as address.email, where the EMAIL constant of some providers goes." },
  { path: "address.phone", label: "Address phone", input: "tel", help: "Sent as address.phone, where the PHONE constant of some providers goes." },
  {
    path: "constants.customer_country_phone_code",
    label: "Country phone code",
    input: "tel",
    help: "Sent as constants.customer_country_phone_code, e.g. +44, where the COUNTRY_PHONE_CODE constant goes.",
  },
];

const CUSTOMER_FIELDS: readonly CustomerFieldSpec[] = [...GENERAL_FIELDS, ...CONSTANT_TARGET_FIELDS];

/** The fields the provider's examples show (spec 2.3 "Seen with provider"), else the general ones. */
export function customerFieldsFor(provider: string | undefined): readonly CustomerFieldSpec[] {
  const shown = provider === undefined ? [] : (getProvider(provider)?.examples.customerFields ?? []);
  const seen = CUSTOMER_FIELDS.filter((field) => shown.includes(field.path));
  return seen.length > 0 ? seen : GENERAL_FIELDS;
}

export const CUSTOMER_FIELD_PATHS: readonly string[] = CUSTOMER_FIELDS.map((field) => field.path);
