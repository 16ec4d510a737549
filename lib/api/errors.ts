import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { toJsonPointer, type Problem } from "@/lib/problems";

/** One JSON:API error object (../shared/REFERENCE.md "Errors"). */
export type JsonApiError = {
  status: string;
  code: string;
  title: string;
  detail: string;
  source?: { pointer: string } | { parameter: string } | { header: string };
};

export const JSON_API_CONTENT_TYPE = "application/vnd.api+json";

/** A problem the client can act on; thrown anywhere below a route wrapper and rendered by `handleApiError`. */
export class ApiError extends Error {
  override name = "ApiError";

  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly pointer?: string,
    /** A request header at fault (JSON:API's `source.header`), when the body is not. */
    readonly header?: string,
  ) {
    super(detail);
  }

  toJsonApi(): JsonApiError {
    const error = jsonApiError(this.status, this.code, this.title, this.detail);
    if (this.pointer !== undefined) return { ...error, source: { pointer: this.pointer } };
    return this.header === undefined ? error : { ...error, source: { header: this.header } };
  }
}

/** A support credential's live-mode request refused (403), worded by `testModeOnly` (lib/problems.ts). */
export function testModeOnlyError(refusal: Problem, pointer?: string): ApiError {
  return new ApiError(403, refusal.code, "Test mode only", refusal.message, pointer);
}

/**
 * An invoice create in the mode the API key does not serve (403, pointer test_mode): a test key
 * creates test invoices only, a live key live ones only; the key's prefix (pok_test_ / pok_live_) says which.
 */
export function keyModeMismatchError(keyMode: "test" | "live"): ApiError {
  const detail =
    keyMode === "test"
      ? "This is a test API key: it creates test invoices only (send test_mode: true). Use a live key (pok_live_…) for live invoices."
      : "This is a live API key: it creates live invoices only (leave test_mode out or false). Use a test key (pok_test_…) for test invoices.";
  return new ApiError(403, "key_mode_mismatch", `Wrong mode for a ${keyMode} key`, detail, "/data/attributes/test_mode");
}

/** Several problems at once: validation reports every bad field in one answer, not one per round trip. */
export class ApiValidationError extends Error {
  override name = "ApiValidationError";

  constructor(
    readonly problems: readonly Problem[],
    readonly options: JsonApiErrorOptions = {},
  ) {
    super(`${problems.length} validation problem(s)`);
  }

  get status(): number {
    return this.options.status ?? 422;
  }

  toJsonApi(): JsonApiError[] {
    return problemsToJsonApi(this.problems, this.options);
  }
}

/**
 * JSON:API `title` per problem code: the same title for every occurrence of a code, `detail`
 * carries the specific message. Codes not listed are client mistakes without a title of their
 * own (label_taken, immutable, …) and read "Invalid value".
 */
export const PROBLEM_TITLES: Readonly<Record<string, string>> = {
  invalid: "Invalid value",
  required: "Required field missing",
  invalid_type: "Wrong type",
  invalid_value: "Value not allowed",
  invalid_format: "Wrong format",
  invalid_character: "Character not allowed",
  too_small: "Value too small",
  too_big: "Value too large",
  too_long: "Value too long",
  too_short: "Value too short",
  out_of_range: "Value out of range",
  not_multiple_of: "Invalid precision",
  unrecognized_keys: "Unknown field",
  unknown_attribute: "Unknown field",
  invalid_union: "Invalid value",
  invalid_key: "Invalid key",
  invalid_element: "Invalid element",
  custom: "Invalid value",
  unknown_service: "Unknown service",
  service_type_mismatch: "Service does not match invoice type",
  currency_mismatch: "Currency does not match service",
  invalid_amount: "Invalid amount",
  invalid_card_number: "Invalid card number",
  customer_conflict: "Customer sent more than once",
  too_deep: "Nested too deeply",
  unknown_parameter: "Invalid query parameter",
  unsupported_parameter: "Unsupported query parameter",
  invalid_parameter: "Invalid query parameter",
  invalid_cursor: "Invalid query parameter",
  invalid_range: "Invalid query parameter",
  cannot_restore: "Version cannot be restored",
  invoice_processing: "Invoice already being paid",
  invoice_final: "Invoice cannot be paid again",
  invoice_expired: "Invoice expired",
  attempts_exhausted: "Attempts limit reached",
  outcome_unknown: "Outcome not known yet",
  wrong_direction: "Wrong invoice type",
  payout_not_supported: "Not a payout service",
};

function titleOf(code: string): string {
  return PROBLEM_TITLES[code] ?? "Invalid value";
}

/** A path that already names `data` is relative to the document root; anything else sits under `basePointer`. */
export function buildPointer(path: readonly (string | number)[], basePointer = "/data/attributes"): string {
  return path[0] === "data" ? toJsonPointer(path) : basePointer + toJsonPointer(path);
}

export type JsonApiErrorOptions = {
  /** HTTP status of every error; 422 for a body the server understood but refuses, 400 for a bad query. */
  status?: number;
  /** `pointer` for a request body (RFC 6901 `source.pointer`), `parameter` for a query parameter (the path's first segment). */
  source?: "pointer" | "parameter";
  /**
   * Where paths that do not start with `data` sit: `/data/attributes` (the default) for attribute
   * paths such as a connection's, `""` when paths are from the document root.
   */
  base?: string;
};

/** Problems → JSON:API error objects: the one rendering of problems at the HTTP boundary. */
export function problemsToJsonApi(problems: readonly Problem[], options: JsonApiErrorOptions = {}): JsonApiError[] {
  const { status = 422, source = "pointer", base = "/data/attributes" } = options;
  const errors = problems.map((entry) => ({
    status: String(status),
    code: entry.code,
    title: titleOf(entry.code),
    detail: entry.message,
    source: source === "parameter" ? { parameter: String(entry.path[0] ?? "") } : { pointer: buildPointer(entry.path, base) },
  }));
  // Two checks may find the same fault; JSON:API wants each error object once (unique items).
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = JSON.stringify(error);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** One JSON:API error object about the request as a whole (no source). */
export function jsonApiError(status: number, code: string, title: string, detail: string): JsonApiError {
  return { status: String(status), code, title, detail };
}

/**
 * The JSON:API error document's text: every error body the server sends is written here, the
 * route wrappers' and the Node server's own (a malformed path, a request Node could not parse).
 */
export function jsonApiErrorBody(errors: readonly JsonApiError[], requestId: string): string {
  return JSON.stringify({ errors, meta: { request_id: requestId } });
}

function errorResponse(status: number, errors: JsonApiError[], requestId: string, headers?: HeadersInit): Response {
  const responseHeaders = new Headers(headers);
  responseHeaders.set("Content-Type", JSON_API_CONTENT_TYPE);
  responseHeaders.set("X-Request-Id", requestId);
  return new Response(jsonApiErrorBody(errors, requestId), { status, headers: responseHeaders });
}

/** An error response with one error object about the request as a whole. */
export function singleErrorResponse(status: number, code: string, title: string, detail: string, requestId: string, headers?: HeadersInit): Response {
  return errorResponse(status, [jsonApiError(status, code, title, detail)], requestId, headers);
}

export function handleApiError(error: unknown, requestId: string): Response {
  if (error instanceof ApiError) return errorResponse(error.status, [error.toJsonApi()], requestId);
  if (error instanceof ApiValidationError) return errorResponse(error.status, error.toJsonApi(), requestId);
  if (error instanceof ForbiddenError) {
    return singleErrorResponse(403, "forbidden", "Forbidden", error.message || "This resource belongs to another merchant.", requestId);
  }
  if (error instanceof NotFoundError) {
    return singleErrorResponse(404, "not_found", "Not found", error.message || "The resource does not exist.", requestId);
  }
  // The stack goes to the log (redacted there) and never to the client: it names internals.
  logger.error("unhandled API error", {
    requestId,
    error,
    stack: error instanceof Error ? error.stack : undefined,
  });
  return singleErrorResponse(
    500,
    "internal_error",
    "Internal error",
    "The service could not complete the request. Quote the request id when asking for help.",
    requestId,
  );
}
