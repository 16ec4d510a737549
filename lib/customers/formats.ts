import type { ConstantFormat } from "@/lib/providers/types";

/**
 * Value formats of spec 2.3 shared by the connection constants (2.5) and the invoice's customer
 * object (2.2): one definition of a real date and of an international phone number.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2023-02-30 is not). */
export function isRealIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2023-02-30 over to March; only a real date survives the round trip.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** E.164: a plus, then 8 to 15 digits, the first not zero. Spaces are for people and are dropped. */
export const INTERNATIONAL_PHONE = /^\+[1-9]\d{7,14}$/;

export function isInternationalPhone(value: string): boolean {
  return INTERNATIONAL_PHONE.test(value.replace(/\s+/g, ""));
}

export const PHONE_FORMAT_MESSAGE = "Enter an international number: + then 8 to 15 digits, e.g. +442079460958";

/** Placeholder-style hints for form inputs, kept next to the rules they describe (and free of zod: the constants editor shows them before it loads a schema). */
export const CONSTANT_FORMAT_HINTS: Readonly<Record<ConstantFormat, string>> = {
  text: "Up to 200 characters",
  country: "Two-letter country code, e.g. GB",
  email: "E-mail address, e.g. customer@example.com",
  phone: "International number with leading +, e.g. +44 20 7946 0958",
  date_of_birth: "Date as YYYY-MM-DD, e.g. 1990-04-21",
  language: "Two-letter language code, e.g. en",
  phone_country_code: "Dialling code with leading +, e.g. +44",
};
