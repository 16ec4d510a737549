import { CARD_WRITTEN, isSecretValue, luhn, PEM_BLOCK, SECRET_FIELD, SHOWN_ONCE } from "./rules";

const REDACTED = "[redacted]";

/**
 * Card numbers in a run of digits (split by single spaces or dashes), each kept as pages show it:
 * the first six and the last four digits. A run longer than a card ("4242 4242 4242 4242 1230") is
 * searched for any card number inside it.
 */
function maskCards(run: string): string {
  const at: number[] = [];
  for (let i = 0; i < run.length; i += 1) if (run[i]! >= "0" && run[i]! <= "9") at.push(i);
  const digits = at.map((i) => run[i]).join("");
  let out = "";
  let copied = 0;
  for (let start = 0; start + 13 <= digits.length;) {
    let length = 0;
    for (let n = Math.min(19, digits.length - start); n >= 13 && length === 0; n -= 1) if (luhn(digits.slice(start, start + n))) length = n;
    if (length === 0) {
      start += 1;
      continue;
    }
    const card = digits.slice(start, start + length);
    out += `${run.slice(copied, at[start])}${card.slice(0, 6)}******${card.slice(-4)}`;
    copied = at[start + length - 1]! + 1;
    start += length;
  }
  return out + run.slice(copied);
}

/** A JSON member whose value is a string or a number: `"name": "value"` (the value's text as written). */
const JSON_MEMBER = /"((?:[^"\\]|\\.){1,100})"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)/g;
/** A form field: `name=value` between `&`s (or after a query string's `?`, or a line's start). */
const FORM_FIELD = /(^|[&?\s])([^=&?\s]{1,100})=([^&\s]*)/g;

function decodeJsonString(text: string): string {
  try {
    return JSON.parse(text) as string;
  } catch {
    return text.slice(1, -1);
  }
}

function decodeFormValue(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * A body (or any text) with its secrets taken out by the rules of ./rules.ts, as written otherwise
 * (JSON keeps its spacing and its numbers' text, a cut body is redacted as far as it goes): the value
 * of every member or form field named like a secret, key material (PEM blocks), keys and signing
 * secrets shown once, and every full card number (Luhn-valid, however grouped) masked to its first
 * six and last four digits.
 */
export function redactText(text: string): string {
  return text
    .replace(PEM_BLOCK, REDACTED)
    .replace(JSON_MEMBER, (member, name: string, colon: string, value: string) => {
      const field = decodeJsonString(`"${name}"`);
      if (!SECRET_FIELD.test(field)) return member;
      const plain = value.startsWith('"') ? decodeJsonString(value) : value;
      return isSecretValue(field, plain) ? `"${name}"${colon}"${REDACTED}"` : member;
    })
    .replace(FORM_FIELD, (pair, start: string, name: string, value: string) =>
      SECRET_FIELD.test(decodeFormValue(name)) && isSecretValue(decodeFormValue(name), decodeFormValue(value)) ? `${start}${name}=${REDACTED}` : pair,
    )
    .replace(SHOWN_ONCE, REDACTED)
    .replace(CARD_WRITTEN, maskCards);
}
