import { COUNTRY_CODES } from "@/lib/customers/iso-codes";

/**
 * Checks of a rule's conditions that need no currency or connection, without zod, so the Routing
 * page's rule form runs them as the owner types (the schema in rules.ts and the save in orders.ts
 * use the same functions, so the form refuses nothing the server would take, and the reverse).
 */

const DECIMAL = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,8})?$/;

/** A decimal amount as an exact number of 10^-8 units, or undefined when it is not one. */
function scaled(text: string): bigint | undefined {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const [integer, fraction = ""] = trimmed.split(".");
  return BigInt(`${integer}${fraction.padEnd(8, "0")}`);
}

/** Whether "at least `min`" and "at most `max`" can hold together: false when min is above max. */
export function amountRangeEmpty(min: string | undefined, max: string | undefined): boolean {
  const low = min === undefined ? undefined : scaled(min);
  const high = max === undefined ? undefined : scaled(max);
  return low !== undefined && high !== undefined && low > high;
}

/** Whether a two-letter code is an assigned ISO 3166-1 country. */
export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code.trim().toUpperCase());
}

export const unknownCountryMessage = (code: string) => `${code} is not an ISO 3166-1 country code (such as GB, FR or DE)`;
const emptyRangeMessage = (min: string, max: string) => `The lowest amount ${min} is above the highest ${max}, so the rule would match nothing`;
const amountShapeMessage = (what: string) => `${what} must be a decimal amount such as 10.00`;

/** The form's problems by field, as it is typed: amounts' shape and order, countries known. */
export function conditionProblems(draft: { amountMin: string; amountMax: string; countries: { field: string; codes: string[] }[] }): Record<string, string> {
  const problems: Record<string, string> = {};
  const min = draft.amountMin.trim();
  const max = draft.amountMax.trim();
  if (min && scaled(min) === undefined) problems.amountMin = amountShapeMessage("The lowest amount");
  if (max && scaled(max) === undefined) problems.amountMax = amountShapeMessage("The highest amount");
  if (!problems.amountMin && !problems.amountMax && min && max && amountRangeEmpty(min, max)) problems.amountMax = emptyRangeMessage(min, max);
  for (const { field, codes } of draft.countries) {
    const unknown = codes.find((code) => !isCountryCode(code));
    if (unknown !== undefined) problems[field] = unknownCountryMessage(unknown);
  }
  return problems;
}
