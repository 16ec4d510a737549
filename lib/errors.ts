/**
 * Refusals thrown through several layers. Problems a caller can fix field by field are values
 * instead: `Problem` and `Result` in lib/problems.ts.
 */

/** Thrown for "you may not": callers map it to 403 or a redirect. */
export class ForbiddenError extends Error {
  override name = "ForbiddenError";
}

export class NotFoundError extends Error {
  override name = "NotFoundError";
}
