import type { z } from "zod";

/**
 * The one problem type of lib/: anything a caller did wrong (a bad field, a bad query parameter, a
 * rule of the spec, a refusal by a provider) is a Problem. It is rendered in exactly two places:
 * as JSON:API error objects at the HTTP boundary (`problemsToJsonApi` in lib/api/errors.ts) and as
 * form field errors of server actions and the hosted page (`problemsToFormErrors` in lib/actions/result.ts).
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

/**
 * A value, or every problem found at once: the one result type of lib/, server actions included
 * (runAction renders the problems as form errors). A refusal of the request as a whole, with no
 * field to blame, is a problem with an empty path: a form shows it as its alert.
 */
export type Result<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (problems: Problem[]): { ok: false; problems: Problem[] } => ({ ok: false, problems });

export const problem = (code: string, message: string, path: readonly (string | number)[] = []): Problem => ({
  code,
  message,
  path,
});

/** A refusal of the whole request: one problem without a path. */
export const refuse = (code: string, message: string): { ok: false; problems: Problem[] } => fail([problem(code, message)]);

/**
 * A live-mode operation refused to a support member (or a support member's credential): the one
 * wording of `test_mode_only`, for the dashboard's actions and the API alike, e.g.
 * `testModeOnly("refund", "payment")`, `testModeOnly("cancel", "payout")`.
 */
export const testModeOnly = (verb: string, thing: string): Problem =>
  problem("test_mode_only", `Support members may ${verb} test ${thing}s only; ask an owner to ${verb} a live ${thing}.`);

/** The same problems one level down, e.g. a kind's credential rules reported under `credentials`. */
export function prefixPaths(prefix: readonly (string | number)[], problems: readonly Problem[]): Problem[] {
  return problems.map((entry) => ({ ...entry, path: [...prefix, ...entry.path] }));
}

/** RFC 6901: `~` and `/` inside a segment are escaped; the empty path is the whole document. */
export function toJsonPointer(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/**
 * Separates per-key messages of one `unrecognized_keys` issue. zod reports all unknown keys of an
 * object as one issue with one message; a schema that wants a message per key (a "did you mean")
 * joins them with this, and `problemsFromZod` splits them back, one problem per key.
 */
export const UNKNOWN_KEY_SEPARATOR = "\n";

/**
 * How zod's issue codes are named in problems:
 * - `zod` keeps zod's own (`too_big`, `unrecognized_keys`, `custom`); the management API and forms use these.
 * - `closed` is a small documented set an API can promise: `too_long` / `too_short` for text and
 *   lists, `out_of_range` for numbers, `unknown_attribute`, `invalid` for anything else; the
 *   invoice API publishes these.
 * Both take a refinement's own `params.code` and report a missing member as `required`.
 */
type ZodCodes = "zod" | "closed";

export type ZodProblemOptions = {
  /**
   * The input that was parsed. With it, any type or value problem at a member that is absent is
   * `required`; without it, only zod's own "received undefined" type message is.
   */
  input?: unknown;
  codes?: ZodCodes;
};

type Issue = z.core.$ZodIssue;

function valueAt(source: unknown, path: readonly PropertyKey[]): unknown {
  let current = source;
  for (const part of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

function isMissing(issue: Issue, options: ZodProblemOptions): boolean {
  if (!("input" in options)) return issue.code === "invalid_type" && /received undefined$/.test(issue.message);
  const typeOrValue = issue.code === "invalid_type" || issue.code === "invalid_union" || issue.code === "invalid_value";
  return typeOrValue && valueAt(options.input, issue.path) === undefined;
}

function closedCode(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
    case "invalid_union":
      return "invalid_type";
    case "invalid_value":
    case "invalid_format":
      return issue.code;
    case "too_big":
    case "too_small": {
      if (issue.origin === "string" || issue.origin === "array") return issue.code === "too_big" ? "too_long" : "too_short";
      return "out_of_range";
    }
    default:
      return "invalid";
  }
}

function codeOf(issue: Issue, options: ZodProblemOptions): string {
  if (isMissing(issue, options)) return "required";
  const own: unknown = issue.code === "custom" ? issue.params?.code : undefined;
  if (typeof own === "string") return own;
  return options.codes === "closed" ? closedCode(issue) : issue.code;
}

/** zod's default text names no field; a schema's own per-key messages are used as they are. */
function unknownKeyProblems(issue: z.core.$ZodIssueUnrecognizedKeys, path: (string | number)[], options: ZodProblemOptions): Problem[] {
  const own = /^Unrecognized keys?:/.test(issue.message) ? [] : issue.message.split(UNKNOWN_KEY_SEPARATOR);
  const code = options.codes === "closed" ? "unknown_attribute" : "unrecognized_keys";
  return issue.keys.map((key, index) => ({
    code,
    message: own.length === issue.keys.length ? own[index]! : `Unknown field "${key}"`,
    path: [...path, key],
  }));
}

/**
 * zod issues → problems, the one place this happens. Every issue is kept (all problems at once);
 * one unknown-keys issue becomes one problem per key, so each points at its own member; a missing
 * member reads "x is required" rather than zod's type text. Messages come from the schema or zod,
 * neither of which echoes the submitted value (card numbers must not leak into responses or logs).
 */
export function problemsFromZod(issues: readonly Issue[], options: ZodProblemOptions = {}): Problem[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map((part) => (typeof part === "number" ? part : String(part)));
    if (issue.code === "unrecognized_keys") return unknownKeyProblems(issue, path, options);
    const code = codeOf(issue, options);
    const field = path.at(-1);
    const message = code === "required" && field !== undefined ? `${String(field)} is required` : issue.message;
    return [{ code, message, path }];
  });
}
