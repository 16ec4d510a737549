/**
 * What counts as a secret or a card number, once: the request log's redaction (./text.ts) removes
 * what these rules name, and the end-to-end secrets scan (e2e/support/leak-scan.ts) learns the
 * run's secrets by the same rules, so the scan proves the redaction misses nothing it knows of.
 */

/**
 * Field names whose values are secrets: passwords, secrets, private keys, API keys, card numbers
 * and card codes (CVC, CVV, security code). A plain `number` or `pan` field is one only when its
 * value is a full card number (an invoice number is no secret).
 */
export const SECRET_FIELD =
  /(password|passphrase|secret|private_?key|privatekey|api_?key|apikey|card_?number|cardnumber|cvc|cvv|security_?code|^(\d+_)?(number|pan)$)/i;

/** A field that holds a secret only when its value is a full card number. */
const NUMBER_FIELD = /number|pan/i;

/** A masked value sent back as shown ("••••abcd", "411111******1111"): no secret. */
const MASKED = /[•*]{4}/;

/** Shown once when made: API keys (`pok_…`) and webhook signing secrets (`whsec_…`). */
export const SHOWN_ONCE = /\b(?:pok|whsec)_[A-Za-z0-9_-]{20,}/g;

/**
 * A card number standing alone as 15 or 16 digits ("4111…" in JSON, a form field), never inside a
 * longer word: Provider B's sandbox references are "B" and 16 hex characters, and now and then those
 * hold a Luhn-valid run of 15 digits ("B310000000000005e"), which is no card.
 */
export const CARD_RUN = /(?<![0-9A-Za-z])[3-6]\d{14,15}(?![0-9A-Za-z])/g;

/** 13 to 19 digits, alone or in groups split by single spaces or dashes ("4242 4242 4242 4242"). */
export const CARD_WRITTEN = /(?<![0-9A-Za-z])\d(?:[ -]?\d){12,18}(?![0-9A-Za-z])/g;

/** Key material: a PEM block, to its end (or the end of the text when it was cut). */
export const PEM_BLOCK = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g;

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** The digits of a full card number (13 to 19, Luhn-valid, written with or without spaces or dashes), else undefined. */
export function cardDigits(value: string): string | undefined {
  const digits = value.replace(/[ -]/g, "");
  return /^\d{13,19}$/.test(digits) && luhn(digits) ? digits : undefined;
}

/** Whether a value sent in a field of this name is a secret to remove (or, in the scan, to search for). */
export function isSecretValue(field: string, value: string): boolean {
  if (!SECRET_FIELD.test(field) || value.length === 0) return false;
  if (cardDigits(value)) return true;
  if (NUMBER_FIELD.test(field)) return false;
  return !MASKED.test(value);
}
