/**
 * Card number helpers for payout destinations (spec 4.2 `fields.card_number`). The full number
 * must never reach logs, errors or responses: show it only through `maskCardNumber`.
 */

export const CARD_NUMBER_MIN_DIGITS = 12;
export const CARD_NUMBER_MAX_DIGITS = 19;

const VISIBLE_PREFIX = 6;
const VISIBLE_SUFFIX = 4;

/** Separators people type between digit groups; removed before any check. */
export function stripCardSeparators(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/** Luhn (mod 10) check of a string of digits; false for anything that is not only digits. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Spec 2.2 shows `fields.card_number` masked ("digits with asterisks"): at least the first six and
 * the last four digits visible, asterisks between. Separators are stripped first.
 */
export function isMaskedCardNumber(value: string): boolean {
  const clean = stripCardSeparators(value);
  return clean.length >= CARD_NUMBER_MIN_DIGITS && clean.length <= CARD_NUMBER_MAX_DIGITS && clean.includes("*") && /^\d{6}[\d*]*\d{4}$/.test(clean);
}

/**
 * First six and last four digits with asterisks between, e.g. "411111******1111" (the PCI DSS
 * display limit). Numbers too short to keep at least two digits hidden are masked entirely,
 * so a malformed input can never be shown in full.
 */
export function maskCardNumber(digits: string): string {
  // Also re-masks an already masked number, so at most six and four digits survive either way.
  const clean = stripCardSeparators(digits);
  if (clean.length < VISIBLE_PREFIX + VISIBLE_SUFFIX + 2) return "*".repeat(clean.length);
  const hidden = clean.length - VISIBLE_PREFIX - VISIBLE_SUFFIX;
  return clean.slice(0, VISIBLE_PREFIX) + "*".repeat(hidden) + clean.slice(-VISIBLE_SUFFIX);
}

/**
 * The last four digits of a full or masked card number (what search finds an invoice by), or null
 * when the number is too short to show them (maskCardNumber hides such numbers entirely).
 */
export function cardLastFour(number: string): string | null {
  const clean = stripCardSeparators(number);
  if (clean.length < VISIBLE_PREFIX + VISIBLE_SUFFIX + 2) return null;
  const last = clean.slice(-VISIBLE_SUFFIX);
  return /^\d{4}$/.test(last) ? last : null;
}
