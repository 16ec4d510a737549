import { z } from "zod";
import { MAX_INTEGER_DIGITS } from "@/lib/money";
import { CARD_NUMBER_MAX_DIGITS, CARD_NUMBER_MIN_DIGITS, isLuhnValid, isMaskedCardNumber, stripCardSeparators } from "../../cards/card-number";
import { strictObjectOf } from "./strict-object";

/** REFERENCE "Statuses": a payout's failed attempts are retried until this limit (default 5). */
export const DEFAULT_ATTEMPTS_LIMIT = 5;
const MAX_ATTEMPTS_LIMIT = 20;
/** REFERENCE "Limits". */
export const REFERENCE_ID_MAX = 255;

/**
 * An invoice's lifetime, in seconds; unpaid invoices expire when it ends. Default 30
 * minutes, configurable per merchant and per invoice. At least 10 seconds: a merchant may want a
 * link that dies almost at once (a single-use QR code scanned at the till, a checkout that already
 * has the customer on the line); below that the page could not even load on a slow connection. At
 * most 30 days: an unpaid link older than a month is stale, and an open attempt is asked about
 * hourly until the lifetime ends, so the lifetime also bounds reconciliation.
 */
export const INVOICE_LIFETIME_DEFAULT_SECONDS = 1800;
const INVOICE_LIFETIME_MIN_SECONDS = 10;
const INVOICE_LIFETIME_MAX_SECONDS = 30 * 24 * 60 * 60;

export const lifetimeSchema = z
  .int({ error: "lifetime must be a whole number of seconds" })
  .min(INVOICE_LIFETIME_MIN_SECONDS, { error: `lifetime must be at least ${INVOICE_LIFETIME_MIN_SECONDS} seconds` })
  .max(INVOICE_LIFETIME_MAX_SECONDS, { error: `lifetime must be at most ${INVOICE_LIFETIME_MAX_SECONDS} seconds (30 days)` })
  .meta({
    description:
      `Optional. Seconds until the unpaid invoice expires (${INVOICE_LIFETIME_MIN_SECONDS} to ${INVOICE_LIFETIME_MAX_SECONDS}); ` +
      "without it the merchant's Invoice lifetime setting (default 1800, 30 minutes) applies. An expired invoice accepts no payment",
  });
export const SERVICE_FIELDS_MAX = 50;

/**
 * Only the JSON type is checked here; the decimal rules depend on the currency, so
 * `checkInvoiceRules` applies them (code `invalid_amount`) with the invoice's currency.
 */
/**
 * What parseAmount accepts, stated for the OpenAPI document (every currency of the spec has two
 * minor digits): greater than zero, at most MAX_INTEGER_DIGITS integer digits, no leading zero,
 * no sign, no exponent, "." as the separator. The number form cannot show "no exponent" in JSON
 * Schema; the server refuses 1e3 written as a number exactly as it refuses the string "1e3".
 */
const AMOUNT_STRING_PATTERN = `^(?!0+(?:\\.0+)?$)(?:0|[1-9][0-9]{0,${MAX_INTEGER_DIGITS - 1}})(?:\\.[0-9]{1,2})?$`;
const AMOUNT_NUMBER_MAX = 10 ** MAX_INTEGER_DIGITS - 0.01;

export const amountSchema = z
  .union([z.number().meta({ exclusiveMinimum: 0, maximum: AMOUNT_NUMBER_MAX, multipleOf: 0.01 }), z.string().meta({ pattern: AMOUNT_STRING_PATTERN })], {
    error: 'amount must be a decimal number or string, such as 100.50 or "100.50"',
  })
  .meta({
    description:
      `Positive decimal amount, as a JSON number or a string; at most ${MAX_INTEGER_DIGITS} integer ` +
      "digits and the currency's minor digits (2 for UAH, EUR, AMD, UZS); no exponent. Strings are " +
      "kept exactly as sent.",
    examples: [100, 100.5, "100.50"],
  });

/** The merchant's idempotency key (REFERENCE "Errors"), so it is kept exactly as sent. */
export const referenceIdSchema = z
  .string()
  .min(1, { error: "reference_id must not be empty" })
  .max(REFERENCE_ID_MAX, { error: `reference_id must have at most ${REFERENCE_ID_MAX} characters` })
  .refine((value) => value === "" || value.trim() !== "", { error: "reference_id must not be blank", params: { code: "too_short" } })
  .meta({ description: "Merchant's own unique reference; a retry with the same value returns the same invoice", pattern: "\\S" });

export const nonBlankText = (field: string, description: string, max = 255) =>
  z
    .string()
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must have at most ${max} characters` })
    .refine((value) => value === "" || value.trim() !== "", { error: `${field} must not be blank`, params: { code: "too_short" } })
    .meta({ description, pattern: "\\S" });

export const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { error: "currency must be a three-letter upper-case code, e.g. EUR" })
  .meta({ description: "ISO 4217 code; must be the currency of the service" });

/** Spec 2.4 names the options; their meaning is this product's choice, stated per field. */
export const paymentOptionsSchema = strictObjectOf(
  {
    allow_partially: z.boolean().optional().meta({ description: "Accept a lower processed amount" }),
    bypass_hpp: z.boolean().optional().meta({ description: "Skip the hosted page where the provider allows (Provider F)" }),
    send_operation_context_on_return: z.boolean().optional().meta({ description: "Add the operation context to the customer's return URL (Provider F)" }),
  },
  "payment option",
).meta({ description: "Payment options. Unknown options are rejected." });

export const payoutOptionsSchema = strictObjectOf(
  {
    attempts_limit: z
      .int({ error: "attempts_limit must be a whole number" })
      .min(1, { error: "attempts_limit must be at least 1" })
      .max(MAX_ATTEMPTS_LIMIT, { error: `attempts_limit must be at most ${MAX_ATTEMPTS_LIMIT}` })
      .optional()
      .meta({ description: `Attempts before the payout is final as process_failed; ${DEFAULT_ATTEMPTS_LIMIT} when omitted` }),
    split_mode: z.boolean().optional().meta({ description: "Allow the payout to be split into several parts" }),
    allow_partially: z.boolean().optional().meta({ description: "Accept a lower processed amount" }),
    auto_process: z.boolean().optional().meta({ description: "Process without a manual confirmation" }),
  },
  "payout option",
).meta({ description: "Payout options. Unknown options are rejected." });

/**
 * Spec 2.2 shows `card_number` masked ("digits with asterisks"), so both forms are accepted: a
 * full number (Luhn-checked) or a masked one with the first six and last four digits visible.
 * Only a mask is ever stored; a full number stays in memory for the provider call. Messages
 * never echo digits.
 */
const cardNumberSchema = z
  .string({ error: "card_number must be a string of digits" })
  .superRefine((value, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: "custom", message, params: { code: "invalid_card_number" } });
    if (value.includes("*")) {
      if (isMaskedCardNumber(value)) return;
      return issue(
        `A masked card_number must have ${CARD_NUMBER_MIN_DIGITS} to ${CARD_NUMBER_MAX_DIGITS} characters, ` +
          "show the first six and the last four digits, and hide the digits between them with *",
      );
    }
    if (!/^[\d\s-]*$/.test(value)) return issue("card_number may contain only digits, spaces and dashes (or * in a masked number)");
    const digits = stripCardSeparators(value);
    if (digits.length < CARD_NUMBER_MIN_DIGITS || digits.length > CARD_NUMBER_MAX_DIGITS) {
      return issue(`card_number must have ${CARD_NUMBER_MIN_DIGITS} to ${CARD_NUMBER_MAX_DIGITS} digits, got ${digits.length}`);
    }
    if (!isLuhnValid(digits)) return issue("card_number is not a valid card number (check digit mismatch); check for a typo");
  })
  .transform(stripCardSeparators)
  .meta({
    // The two forms the check above accepts (the Luhn check digit cannot be said in JSON Schema).
    pattern:
      `^(?:(?:[\\s-]*[0-9]){${CARD_NUMBER_MIN_DIGITS},${CARD_NUMBER_MAX_DIGITS}}[\\s-]*` +
      `|(?=[0-9]*\\*)[0-9]{6}[0-9*]{${CARD_NUMBER_MIN_DIGITS - 10},${CARD_NUMBER_MAX_DIGITS - 10}}[0-9]{4})$`,
    description:
      `Destination card: either the full number (${CARD_NUMBER_MIN_DIGITS} to ${CARD_NUMBER_MAX_DIGITS} digits, ` +
      "Luhn-valid; spaces and dashes are ignored) or a masked number (digits and *, " +
      "first six and last four digits visible, e.g. 411111******1111). Only the mask (first six, last four) is " +
      "stored or returned.",
  });

export const payoutFieldsSchema = strictObjectOf({ card_number: cardNumberSchema }, "payout field").meta({
  description: "Destination of the payout",
});

/** A payment's `description`: what it is for, in the merchant's words (the hosted page shows it). */
export const DESCRIPTION_MAX = 255;
