/**
 * A problem with one field of the input, named by its path (form field name or JSON pointer parts).
 * lib functions return these; forms and the JSON:API layer render them.
 */
export type FieldError = { path: (string | number)[]; message: string; code?: string };

export type Result<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (errors: FieldError[]): { ok: false; errors: FieldError[] } => ({ ok: false, errors });

/** Turns zod issues into field errors. */
export function fromZodIssues(issues: readonly { path: readonly PropertyKey[]; message: string; code?: string }[]): FieldError[] {
  return issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === "number" ? p : String(p))),
    message: issue.message,
    code: issue.code,
  }));
}

/** Thrown for "you may not": callers map it to 403 or a redirect. */
export class ForbiddenError extends Error {
  override name = "ForbiddenError";
}

export class NotFoundError extends Error {
  override name = "NotFoundError";
}
