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
  return redactParsedSecrets(text)
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

/** Secret values in parsed JSON, found as the secrets scan finds them: a field's name carries into its arrays. */
function secretStrings(value: unknown, field: string, out: Set<string>, depth = 0): void {
  if (depth > 12) return;
  if (typeof value === "string") {
    if (isSecretValue(field, value)) out.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) secretStrings(item, field, out, depth + 1);
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) secretStrings(item, key, out, depth + 1);
  }
}

/**
 * A whole JSON body: every string a secret-named field holds however deep (in arrays too, which the
 * member pattern does not reach), replaced where the text spells it as JSON does.
 */
function redactParsedSecrets(text: string): string {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const secrets = new Set<string>();
  secretStrings(parsed, "", secrets);
  let out = text;
  for (const secret of secrets) out = out.split(JSON.stringify(secret)).join(`"${REDACTED}"`);
  return out;
}
