/**
 * The hosted page's card checks and input formatting as plain functions, without zod: the browser
 * runs them (`cardFieldErrors` on submit, the formatters as the customer types), and the server's
 * schema (card-schema.ts) is built from the very same functions, so both say the same thing.
 * No message ever repeats what was typed.
 *
 * Everything lives inside one self-contained function, `cardInput`, because the hosted page ships
 * its source text to the browser (lib/pay/page/assets.ts): it may use nothing from outside its own
 * body but JavaScript's built-ins. A unit test runs that text on its own to hold this.
 */

/** What the customer typed, as the form holds it. */
export type CardFormValues = { number: string; expiry: string; cvc?: string; holder: string };

export type CardCheckOptions = {
  /** Provider D takes no CVC: the field is left out and its value ignored. */
  takesCvc: boolean;
  /** For tests; expiry is judged against this month. */
  now?: Date;
};

export type CardFieldErrors = Partial<Record<keyof CardFormValues, string>>;

export function cardInput() {
  /** How long ahead an expiry date may lie; further is a typing mistake. */
  const MAX_YEARS_AHEAD = 20;

  const CARD_MESSAGES = {
    number: "Enter the card number.",
    expiry: "Enter the expiry date as MM/YY, e.g. 04/29.",
    cvc: "Enter the 3 or 4 digit CVC.",
    holder: "Enter the name on the card (2 to 100 characters).",
  } as const;

  function cardDigits(value: string): string {
    return value.replace(/[\s-]/g, "");
  }

  /** The Luhn checksum every card number carries: catches a mistyped or swapped digit. */
  function passesLuhn(digits: string): boolean {
    let sum = 0;
    for (let index = 0; index < digits.length; index++) {
      let digit = Number(digits[digits.length - 1 - index]);
      if (index % 2 === 1) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
    }
    return sum % 10 === 0;
  }

  function cardNumberMessage(value: string): string | undefined {
    const digits = cardDigits(value);
    if (digits === "") return CARD_MESSAGES.number;
    if (!/^\d+$/.test(digits)) return "The card number may contain digits only.";
    if (digits.length < 12 || digits.length > 19) return "The card number has 12 to 19 digits.";
    if (!passesLuhn(digits)) return "This card number is not valid: check the digits.";
    return undefined;
  }

  /** "MM/YY" (spaces allowed around the slash) → month and four-digit year. */
  function parseExpiry(value: string): { month: number; year: number } | undefined {
    const match = /^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/.exec(value);
    if (!match) return undefined;
    const month = Number(match[1]);
    if (month < 1 || month > 12) return undefined;
    return { month, year: 2000 + Number(match[2]) };
  }

  function expiryMessage(value: string, now: Date): string | undefined {
    const expiry = parseExpiry(value);
    if (!expiry) return CARD_MESSAGES.expiry;
    // A card is valid through the last day of its expiry month.
    const months = expiry.year * 12 + expiry.month;
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
    if (months < current) return "This card has expired.";
    if (months > current + MAX_YEARS_AHEAD * 12) return "Check the expiry date: it is too far ahead.";
    return undefined;
  }

  function cvcMessage(value: string): string | undefined {
    return /^\d{3,4}$/.test(value.trim()) ? undefined : CARD_MESSAGES.cvc;
  }

  function holderMessage(value: string): string | undefined {
    const length = value.trim().length;
    return length < 2 || length > 100 ? CARD_MESSAGES.holder : undefined;
  }

  /** The form's values checked field by field: one message per field that is wrong, none when all are right. */
  function cardFieldErrors(values: Partial<Record<keyof CardFormValues, unknown>>, options: CardCheckOptions): CardFieldErrors {
    const now = options.now ?? new Date();
    const checks: [keyof CardFormValues, (value: string) => string | undefined][] = [
      ["number", cardNumberMessage],
      ["expiry", (value) => expiryMessage(value, now)],
      ...(options.takesCvc ? [["cvc", cvcMessage] as [keyof CardFormValues, (value: string) => string | undefined]] : []),
      ["holder", holderMessage],
    ];
    const errors: CardFieldErrors = {};
    for (const [name, check] of checks) {
      const value = values[name];
      const message = typeof value === "string" ? check(value) : CARD_MESSAGES[name];
      if (message) errors[name] = message;
    }
    return errors;
  }

  /** As the customer types: digits in groups of four, at most 19 digits. */
  function formatCardNumberInput(value: string): string {
    const digits = value.replace(/\D/g, "").slice(0, 19);
    return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
  }

  /** As the customer types: "MM/YY", the slash added once the month is complete. */
  function formatExpiryInput(value: string): string {
    const digits = value.replace(/\D/g, "").slice(0, 4);
    return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
  }

  /** A test card's expiry: the current month three years on, so it is always valid. */
  function testCardExpiry(now: Date = new Date()): string {
    const month = String(now.getMonth() + 1).padStart(2, "0");
    return `${month}/${String((now.getFullYear() + 3) % 100).padStart(2, "0")}`;
  }

  return {
    CARD_MESSAGES,
    cardDigits,
    passesLuhn,
    cardNumberMessage,
    parseExpiry,
    expiryMessage,
    cvcMessage,
    holderMessage,
    cardFieldErrors,
    formatCardNumberInput,
    formatExpiryInput,
    testCardExpiry,
  };
}

/** The checks and formatters `cardInput` returns, as the page's script receives them. */
export type CardChecks = ReturnType<typeof cardInput>;

export const {
  CARD_MESSAGES,
  cardDigits,
  passesLuhn,
  cardNumberMessage,
  parseExpiry,
  expiryMessage,
  cvcMessage,
  holderMessage,
  cardFieldErrors,
  formatCardNumberInput,
  formatExpiryInput,
  testCardExpiry,
} = cardInput();
