import * as z from "zod/mini";

/**
 * The hosted page's card form: one schema for the browser (field errors before anything is sent)
 * and the server action (which trusts nothing the browser checked). zod/mini keeps the page's
 * script small: the page is for phones. No message ever repeats what was typed.
 */

/** What the customer typed, as the form holds it. */
export type CardFormValues = { number: string; expiry: string; cvc?: string; holder: string };

/** The card as the provider call takes it (structurally the engine's CardInput). */
export type CardDetails = { number: string; expiryMonth: number; expiryYear: number; cvc?: string; holder: string };

export type CardSchemaOptions = {
  /** Provider D takes no CVC (issue 10): the field is left out and its value ignored. */
  takesCvc: boolean;
  /** For tests; expiry is judged against this month. */
  now?: Date;
};

/** How long ahead an expiry date may lie; further is a typing mistake. */
const MAX_YEARS_AHEAD = 20;

export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/** The Luhn checksum every card number carries: catches a mistyped or swapped digit. */
export function passesLuhn(digits: string): boolean {
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
  if (digits === "") return "Enter the card number.";
  if (!/^\d+$/.test(digits)) return "The card number may contain digits only.";
  if (digits.length < 12 || digits.length > 19) return "The card number has 12 to 19 digits.";
  if (!passesLuhn(digits)) return "This card number is not valid: check the digits.";
  return undefined;
}

/** "MM/YY" (spaces allowed around the slash) → month and four-digit year. */
export function parseExpiry(value: string): { month: number; year: number } | undefined {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/.exec(value);
  if (!match) return undefined;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return undefined;
  return { month, year: 2000 + Number(match[2]) };
}

function expiryMessage(value: string, now: Date): string | undefined {
  const expiry = parseExpiry(value);
  if (!expiry) return "Enter the expiry date as MM/YY, e.g. 04/29.";
  // A card is valid through the last day of its expiry month.
  const months = expiry.year * 12 + expiry.month;
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  if (months < current) return "This card has expired.";
  if (months > current + MAX_YEARS_AHEAD * 12) return "Check the expiry date: it is too far ahead.";
  return undefined;
}

function holderMessage(value: string): string | undefined {
  const length = value.trim().length;
  return length < 2 || length > 100 ? "Enter the name on the card (2 to 100 characters)." : undefined;
}

function checked(message: (value: string) => string | undefined, required: string) {
  return z.string({ error: required }).check(
    z.superRefine((value, context) => {
      const text = message(value);
      if (text) context.addIssue({ code: "custom", message: text });
    }),
  );
}

export function cardSchema(options: CardSchemaOptions) {
  const now = () => options.now ?? new Date();
  const cvc = options.takesCvc
    ? checked((value) => (/^\d{3,4}$/.test(value.trim()) ? undefined : "Enter the 3 or 4 digit CVC."), "Enter the 3 or 4 digit CVC.")
    : z.optional(z.string());
  return z.pipe(
    z.object({
      number: checked(cardNumberMessage, "Enter the card number."),
      expiry: checked((value) => expiryMessage(value, now()), "Enter the expiry date as MM/YY, e.g. 04/29."),
      cvc,
      holder: checked(holderMessage, "Enter the name on the card (2 to 100 characters)."),
    }),
    z.transform((values): CardDetails => {
      const expiry = parseExpiry(values.expiry)!;
      return {
        number: cardDigits(values.number),
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        ...(options.takesCvc && values.cvc ? { cvc: values.cvc.trim() } : {}),
        holder: values.holder.trim(),
      };
    }),
  );
}
