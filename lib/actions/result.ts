import type { Problem } from "@/lib/problems";

/**
 * Errors as a form shows them: one message per field, keyed by its dotted name as react-hook-form
 * names inputs (`credentials.secret_key`), and one message for the form's alert.
 */
export type FormErrors = { fieldErrors: Record<string, string>; message?: string };

/**
 * What every server action answers its form: an action's body returns a Result (lib/problems.ts),
 * and runAction renders it as this, the value as `data` and the problems as form errors.
 */
export type ActionResult<T = undefined> = { ok: true; data: T } | ({ ok: false } & FormErrors);

const OBJECT_MEMBERS = new Set(["__proto__", ...Object.getOwnPropertyNames(Object.prototype)]);

/**
 * Problems → form errors: the one rendering of problems for forms. A field shows its first
 * problem (as the browser's own check does); a problem without a path goes to the alert unless
 * the caller has a message of its own.
 */
export function problemsToFormErrors(problems: readonly Problem[], message?: string): FormErrors {
  const fieldErrors: Record<string, string> = {};
  let unplaced: string | undefined;
  for (const entry of problems) {
    const name = entry.path.join(".");
    // No form has a field called `__proto__` or `constructor` (only a crafted request sends one), and
    // as a key it would set the object's prototype or look present already: its problem goes to the alert.
    if (name === "" || OBJECT_MEMBERS.has(name)) unplaced ??= entry.message;
    else if (!Object.hasOwn(fieldErrors, name)) fieldErrors[name] = entry.message;
  }
  const alert = message ?? unplaced;
  return alert === undefined ? { fieldErrors } : { fieldErrors, message: alert };
}
