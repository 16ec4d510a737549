/**
 * Exact decimal amounts (spec 2.2 `amount`; REFERENCE "Resources": amounts are kept exactly as
 * sent, never rounded by binary floating point). Sums and storage use integer minor units.
 */

/** Digits after the decimal point per currency (ISO 4217 exponents of the spec's currencies). */
const MINOR_DIGITS: Readonly<Record<string, number>> = { UAH: 2, EUR: 2, AMD: 2, UZS: 2 };

const DEFAULT_MINOR_DIGITS = 2;

/** The most decimals any currency has. */
const MAX_MINOR_DIGITS = Math.max(DEFAULT_MINOR_DIGITS, ...Object.values(MINOR_DIGITS));

/**
 * Whether an amount written as a JSON number must be judged by its source text rather than the
 * double JSON.parse made of it: when it has an exponent (`1e3`), or more decimals than any currency
 * has (`10.009999999999999999` became 10.01, `2.000` became 2). Handed on as its text, it meets
 * the string form's rules and is refused as "2.000" is. With at most MAX_INTEGER_DIGITS integer
 * digits and MAX_MINOR_DIGITS decimals a double keeps every digit, so other numbers are exact.
 */
export function amountNeedsSourceText(literal: string): boolean {
  if (/[eE]/.test(literal)) return true;
  const fraction = /\.(\d+)/.exec(literal)?.[1] ?? "";
  return fraction.length > MAX_MINOR_DIGITS;
}

/** 12 integer digits keep every amount, with its decimals, inside a double's 15 exact digits. */
export const MAX_INTEGER_DIGITS = 12;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export type AmountResult = { ok: true; text: string; minor: bigint } | { ok: false; message: string };

export class InvalidAmountError extends Error {
  override name = "InvalidAmountError";
}

export function minorDigitsOf(currency: string): number {
  return MINOR_DIGITS[currency] ?? DEFAULT_MINOR_DIGITS;
}

const fail = (message: string): AmountResult => ({ ok: false, message });

/**
 * A JSON number has already become a double when it reaches us, so its text is the shortest
 * round-trip string (`String(n)`). That string is exact for up to 15 significant digits, and
 * the limits below (12 integer + 2 decimal digits) never need more. Exponent forms that
 * `String` produces for very large or very small numbers are out of range anyway.
 */
function textOfNumber(value: number): string | AmountResult {
  if (!Number.isFinite(value)) return fail("amount must be a finite number");
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return Math.abs(value) >= 1
    ? fail(`amount must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`)
    : fail("amount has too many decimal places");
}

function checkStringShape(value: string): AmountResult | undefined {
  if (value.trim() === "") return fail("amount must not be empty");
  if (value !== value.trim()) return fail("amount must not contain spaces");
  if (value.startsWith("+")) return fail('amount must not start with "+"');
  if (value.startsWith("-")) return fail("amount must be greater than zero");
  if (/e/i.test(value) && /\d/.test(value)) return fail('amount must not use exponent notation such as "1e3"');
  if (value.includes(",")) return fail('amount must use "." as the decimal separator, without grouping');
  if (!DECIMAL.test(value)) return fail('amount must be a decimal number such as 100 or "100.50"');
  return undefined;
}

/**
 * Parses an amount for `currency`. `text` is the amount as the client sent it (numbers as
 * `String(n)`), for echoing back; `minor` is the exact value in minor units.
 */
export function parseAmount(value: unknown, currency: string): AmountResult {
  let text: string;
  if (typeof value === "number") {
    const result = textOfNumber(value);
    if (typeof result !== "string") return result;
    text = result;
    if (value <= 0) return fail("amount must be greater than zero");
  } else if (typeof value === "string") {
    const problem = checkStringShape(value);
    if (problem) return problem;
    text = value;
  } else {
    return fail('amount must be a decimal number or string, such as 100.50 or "100.50"');
  }

  const match = DECIMAL.exec(text);
  if (!match) return fail('amount must be a decimal number such as 100 or "100.50"');
  const integer = match[1] ?? "";
  const fraction = match[2] ?? "";
  if (integer.length > 1 && integer.startsWith("0")) return fail("amount must not have leading zeros");
  if (integer.length > MAX_INTEGER_DIGITS) {
    return fail(`amount must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`);
  }
  const digits = minorDigitsOf(currency);
  if (fraction.length > digits) {
    return fail(`${currency} amounts have at most ${digits} decimal places, got ${fraction.length}`);
  }
  const minor = BigInt(integer + fraction.padEnd(digits, "0"));
  if (minor <= 0n) return fail("amount must be greater than zero");
  return { ok: true, text, minor };
}

/** Like `parseAmount` but for callers that already validated: throws on a bad amount. */
export function toMinorUnits(value: unknown, currency: string): bigint {
  const result = parseAmount(value, currency);
  if (!result.ok) throw new InvalidAmountError(result.message);
  return result.minor;
}

/** Canonical text of a minor-unit amount, always with the currency's decimals: 10050n → "100.50". */
export function formatMinor(minor: bigint, currency: string): string {
  const digits = minorDigitsOf(currency);
  const sign = minor < 0n ? "-" : "";
  const absolute = (minor < 0n ? -minor : minor).toString().padStart(digits + 1, "0");
  if (digits === 0) return sign + absolute;
  return `${sign}${absolute.slice(0, -digits)}.${absolute.slice(-digits)}`;
}

/**
 * An amount as every page of the dashboard shows it, one format per currency: the currency's
 * decimals always written, then the code ("120" EUR → "120.00 EUR", 10050n → "100.50 EUR").
 * Decimal text with more decimals than the currency has (never stored) is shown as it is.
 */
export function formatMoney(amount: string | bigint, currency: string): string {
  if (typeof amount === "bigint") return `${formatMinor(amount, currency)} ${currency}`;
  const match = DECIMAL.exec(amount);
  const digits = minorDigitsOf(currency);
  const fraction = match?.[2] ?? "";
  if (!match || fraction.length > digits) return `${amount} ${currency}`;
  return `${match[1]}${digits === 0 ? "" : `.${fraction.padEnd(digits, "0")}`} ${currency}`;
}
