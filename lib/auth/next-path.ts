/** Where a person lands after signing in when `next` is absent or not a path of this site. */
export const DEFAULT_AFTER_SIGN_IN = "/home";

/**
 * The `next` parameter after sign-in, kept only when it is a path on this site. Browsers read `\` as
 * `/` and drop tabs and newlines inside URLs, so `/\evil.example` or `/<tab>/evil.example` would
 * leave the site as `//evil.example` does. The value is decoded (repeatedly, so `%252F` cannot
 * hide a `%2F`) and refused when any form of it is protocol-relative, has a scheme, a backslash,
 * or a control character; the result is resolved against a dummy origin and must stay on it.
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2048) return DEFAULT_AFTER_SIGN_IN;
  const forms = [next];
  let current = next;
  for (let i = 0; i < 5; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return DEFAULT_AFTER_SIGN_IN;
    }
    if (decoded === current) break;
    forms.push(decoded);
    current = decoded;
  }
  if (current !== decodeOnce(current)) return DEFAULT_AFTER_SIGN_IN;
  for (const form of forms) {
    // Control characters (C0, DEL, C1) and backslashes are never part of a path we hand out.
    if (/[\u0000-\u001f\u007f-\u009f\\]/.test(form)) return DEFAULT_AFTER_SIGN_IN;
    if (!form.startsWith("/") || form.startsWith("//")) return DEFAULT_AFTER_SIGN_IN;
  }
  const base = "http://next-path.invalid";
  let resolved: URL;
  try {
    resolved = new URL(next, base);
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (resolved.origin !== base) return DEFAULT_AFTER_SIGN_IN;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return path === "/" ? DEFAULT_AFTER_SIGN_IN : path;
}

function decodeOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return "";
  }
}
