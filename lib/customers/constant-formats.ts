import { z } from "zod";
import type { ConstantFormat, ConstantSpec } from "@/lib/providers/types";
import { INTERNATIONAL_PHONE, isRealIsoDate, PHONE_FORMAT_MESSAGE } from "./formats";
import { COUNTRY_CODES, LANGUAGE_CODES } from "./iso-codes";

export type ConstantSchemaOptions = {
  /** Injected by tests; "today" is taken in UTC so server and browser agree. */
  now?: () => Date;
};

const TEXT_MAX = 200;
const EMAIL_MAX = 254;
const EARLIEST_BIRTH_DATE = "1900-01-01";

const requiredText = z.string({ error: "Enter a text value" });

function todayUtc(now: () => Date): string {
  return now().toISOString().slice(0, 10);
}

function dateOfBirthSchema(now: () => Date): z.ZodType<string> {
  return (
    requiredText
      .trim()
      .refine((value) => isRealIsoDate(value), { error: "Enter a real date as YYYY-MM-DD" })
      // Fixed-width ISO dates compare correctly as strings.
      .refine((value) => value >= EARLIEST_BIRTH_DATE, { error: "Date of birth cannot be before 1900-01-01" })
      .refine((value) => value < todayUtc(now), { error: "Date of birth must be in the past" })
  );
}

const SCHEMAS: Readonly<Record<Exclude<ConstantFormat, "date_of_birth">, z.ZodType<string>>> = {
  text: requiredText
    .trim()
    .min(1, { error: "Enter a value" })
    .max(TEXT_MAX, { error: `Use at most ${TEXT_MAX} characters` }),
  country: requiredText
    .trim()
    .toUpperCase()
    .refine((value) => COUNTRY_CODES.has(value), {
      error: "Enter an ISO 3166-1 two-letter country code, e.g. GB",
    }),
  email: requiredText
    .trim()
    .max(EMAIL_MAX, { error: `Use at most ${EMAIL_MAX} characters` })
    .pipe(z.email({ error: "Enter a valid e-mail address, e.g. customer@example.com" })),
  phone: requiredText.transform((value) => value.replace(/\s+/g, "")).refine((value) => INTERNATIONAL_PHONE.test(value), { error: PHONE_FORMAT_MESSAGE }),
  language: requiredText
    .trim()
    .toLowerCase()
    .refine((value) => LANGUAGE_CODES.has(value), {
      error: "Enter an ISO 639-1 two-letter language code, e.g. en",
    }),
  phone_country_code: requiredText.trim().refine((value) => /^\+[1-9]\d{0,2}$/.test(value), {
    error: "Enter + then 1 to 3 digits, e.g. +44",
  }),
};

/**
 * Validates and normalises one constant value (upper-cased country, phone without spaces).
 * The form, the server action and the API route all build their schemas here so they agree.
 */
export function constantValueSchema(format: ConstantFormat, options: ConstantSchemaOptions = {}): z.ZodType<string> {
  if (format === "date_of_birth") return dateOfBirthSchema(options.now ?? (() => new Date()));
  return SCHEMAS[format];
}

/**
 * Output per key: a normalised string, `null` when the merchant cleared the value
 * ("" or null sent), or missing when the key was not sent at all. Keeping "cleared" apart
 * from "not sent" lets a partial update remove one constant without touching the others.
 */
export type ConstantValues = Partial<Record<string, string | null>>;
/** Raw form or request input; each value is checked by the schema. */
export type ConstantValuesInput = Record<string, unknown>;

function blankToNull(value: unknown): unknown {
  if (value === null) return null;
  if (typeof value === "string" && value.trim() === "") return null;
  return value;
}

export function constantsSchema(constants: readonly ConstantSpec[], options: ConstantSchemaOptions = {}): z.ZodType<ConstantValues, ConstantValuesInput> {
  const shape: Record<string, z.ZodType<string | null | undefined, unknown>> = {};
  for (const spec of constants) {
    shape[spec.name] = z.preprocess(blankToNull, constantValueSchema(spec.format, options).nullable()).optional();
  }
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown constant${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}`
        : "Constants must be an object keyed by constant name",
  });
}

/** Drops cleared entries: the stored form of constants, which the resolver reads. */
export function compactConstants(values: ConstantValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === "string") out[name] = value;
  }
  return out;
}
