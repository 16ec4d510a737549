import type { Problem } from "@/lib/problems";

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

/**
 * Problems carried out of a place that cannot return them: a transaction it must roll back, or an
 * engine call several layers deep. Whoever catches it returns `problems` as a `Result` (`fail`) or
 * renders them (409/422 on the API).
 */
export class ProblemsError extends Error {
  override name = "ProblemsError";
  constructor(readonly problems: Problem[]) {
    super(problems.map((entry) => entry.message).join(" ") || "refused");
  }
}
