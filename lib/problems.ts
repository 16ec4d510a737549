/**
 * The one problem type of lib/: anything a caller did wrong (a bad field, a bad query parameter, a
 * rule of the spec, a refusal by a provider) is a Problem. It is rendered in exactly two places:
 * as JSON:API error objects at the HTTP boundary (lib/api) and as form field errors in server
 * actions (lib/actions).
 *
 * - `code`: stable, machine-readable, snake_case (`currency_mismatch`, `required`, `provider_auth_error`).
 * - `message`: one sentence a person can act on; never contains the submitted value (card numbers, secrets).
 * - `path`: where the problem is. For a request body, segments from the document root
 *   (`["data", "attributes", "amount"]`); for a form or a connection's attributes, the field path
 *   (`["credentials", "secret_key"]`); for a query parameter, its name (`["filter[status]"]`);
 *   empty when the problem concerns the request as a whole.
 */
export type Problem = {
  code: string;
  message: string;
  path: readonly (string | number)[];
};

/** A value, or every problem found at once. */
export type Result<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (problems: Problem[]): { ok: false; problems: Problem[] } => ({ ok: false, problems });

export const problem = (code: string, message: string, path: readonly (string | number)[] = []): Problem => ({
  code,
  message,
  path,
});
