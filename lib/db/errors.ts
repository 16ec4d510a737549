/**
 * Whether a database error is a unique-constraint violation (SQLSTATE 23505), as postgres.js and
 * PGlite raise it directly or Drizzle wraps it in `cause`.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === "23505" || e?.cause?.code === "23505";
}
