/**
 * Text PostgreSQL cannot store: NUL characters (in text and jsonb) and unpaired UTF-16 surrogates
 * (jsonb). Found before anything reaches the database, so such input gets a field error, not a 500.
 */
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSafeText(value: string): boolean {
  return !UNSAFE.test(value);
}

export const UNSAFE_TEXT_MESSAGE = "Contains a character that cannot be stored (a NUL or an unpaired surrogate)";

/** The path of the first string (or object key) holding unsafe text, depth-first. */
export function findUnsafeText(value: unknown, path: (string | number)[] = [], depth = 0): (string | number)[] | undefined {
  if (typeof value === "string") return isSafeText(value) ? undefined : path;
  if (depth > 64 || value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (!isSafeText(key)) return [...path, key];
    const found = findUnsafeText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}
