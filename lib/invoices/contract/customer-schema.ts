import { z } from "zod";
import { COUNTRY_CODES } from "@/lib/customers";
import { isInternationalPhone, isRealIsoDate, PHONE_FORMAT_MESSAGE } from "@/lib/customers/formats";

/**
 * Spec 2.3: every customer field is optional, and an omitted one is filled from the connection's
 * constants (2.5). The customer resolver treats null and blank strings as omitted, so each field
 * here accepts them too; the format rules apply only to values that are really given.
 */

const TEXT_MAX = 200;
const EMAIL_MAX = 254;
const REFERENCE_MAX = 255;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const isBlank = (value: string): boolean => value.trim() === "";

function optionalText(description: string, max = TEXT_MAX) {
  return z
    .string()
    .max(max, { error: `Use at most ${max} characters` })
    .nullish()
    .meta({ description });
}

/** `format` states the rule for the OpenAPI document (JSON Schema keywords); a blank string is always allowed. */
function formatted(description: string, accepts: (value: string) => boolean, error: string, format: Record<string, unknown> = {}) {
  return z
    .string()
    .refine((value) => isBlank(value) || accepts(value), { error, params: { code: "invalid_format" } })
    .nullish()
    .meta({
      description,
      ...(Object.keys(format).length === 0 ? {} : { anyOf: [{ type: "null" }, { type: "string", pattern: "^\\s*$" }, { type: "string", ...format }] }),
    });
}

const emailSchema = (description: string) =>
  formatted(description, (value) => value.length <= EMAIL_MAX && EMAIL.test(value.trim()), "Enter a valid e-mail address, e.g. customer@example.com", {
    maxLength: EMAIL_MAX,
    pattern: `^\\s*${EMAIL.source.slice(1, -1)}\\s*$`,
  });

const phoneSchema = (description: string) =>
  formatted(description, isInternationalPhone, PHONE_FORMAT_MESSAGE, { pattern: "^\\s*\\+\\s*[1-9](?:\\s*[0-9]){7,14}\\s*$" });

/**
 * Loose: spec 2.3 lists the fields seen, not all a provider may take, and Provider F's constants
 * (2.5) target `first_name`, `last_name`, `email` and `phone` under `address`.
 */
const customerAddressSchema = z
  .looseObject({
    country: formatted(
      "Two-letter ISO 3166-1 country code in upper case, e.g. GB",
      (value) => COUNTRY_CODES.has(value.trim()),
      "Enter an ISO 3166-1 two-letter country code in upper case, e.g. GB",
      { enum: [...COUNTRY_CODES].sort() },
    ),
    city: optionalText("City"),
    street: optionalText("Street and house number"),
    full_address: optionalText("Whole address on one line", 500),
    region: optionalText("Region, state or province"),
    post_code: optionalText("Postal code", 20),
    first_name: optionalText("First name (Provider F reads it here)"),
    last_name: optionalText("Last name (Provider F reads it here)"),
    email: emailSchema("E-mail address (Provider F reads it here)"),
    phone: phoneSchema("International phone number (Provider F reads it here)"),
  })
  .meta({ description: "Customer address. Unknown keys are passed on to the provider." });

/** Loose for the same reason as the address: provider-specific extras must reach the provider. */
export const customerSchema = z
  .looseObject({
    reference_id: z
      .union([z.string().max(REFERENCE_MAX), z.int()], {
        error: "customer.reference_id must be a string or an integer",
      })
      .nullish()
      .meta({ description: "Merchant's own id of the customer; a string or an integer" }),
    name: optionalText("Customer's full name"),
    email: emailSchema("E-mail address"),
    phone: phoneSchema("International phone number with leading +"),
    date_of_birth: formatted(
      "Date of birth as YYYY-MM-DD",
      (value) => isRealIsoDate(value.trim()),
      "Enter a real date as YYYY-MM-DD, e.g. 1990-04-21",
      // Years 0000-0099 are refused as well (no date of birth is that old).
      { format: "date", pattern: "^(?!00)[0-9]{4}-[0-9]{2}-[0-9]{2}$" },
    ),
    address: customerAddressSchema.nullish(),
    constants: z.record(z.string(), z.string().nullable()).nullish().meta({ description: "Provider F constants such as customer_country_phone_code" }),
  })
  .meta({
    description:
      "Customer. All fields optional; omitted, null or blank ones are filled from the " +
      "connection's constants. Unknown keys are allowed and passed on to the provider, except the reserved names " +
      "__proto__, constructor and prototype, refused anywhere inside the customer (422 unknown_attribute at that member).",
  });

export type Customer = z.output<typeof customerSchema>;
