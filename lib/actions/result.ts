import type { FieldError } from "@/lib/errors";

/** What every server action returns: data, or field errors and a message for the form. */
export type ActionResult<T = undefined> =
  | { ok: true; data: T }
  | { ok: false; errors: FieldError[]; message?: string };
