import { ForbiddenError, NotFoundError, type FieldError } from "@/lib/errors";
import { logger } from "@/lib/logger";

/** One JSON:API error object (../shared/REFERENCE.md "Errors"). */
export type JsonApiError = { status: string; code: string; title: string; detail: string; source?: { pointer: string } };

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
  ) {
    super(detail);
  }

  toJsonApi(): JsonApiError {
    const error: JsonApiError = { status: String(this.status), code: this.code, title: this.title, detail: this.detail };
    return this.pointer === undefined ? error : { ...error, source: { pointer: this.pointer } };
  }
}

/** Several problems at once: validation reports every bad field in one answer, not one per round trip. */
export class ApiValidationError extends Error {
  override name = "ApiValidationError";

  constructor(
    readonly errors: JsonApiError[],
    readonly status = 422,
  ) {
    super(`${errors.length} validation error(s)`);
  }
}

/** Titles for the codes zod and lib/ produce; unknown codes fall back to a generic title. */
const TITLES: Record<string, string> = {
  invalid: "Invalid value",
  required: "Required",
  invalid_type: "Wrong type",
  invalid_format: "Invalid format",
  invalid_value: "Invalid value",
  too_small: "Value too small",
  too_big: "Value too large",
  not_multiple_of: "Invalid precision",
  unrecognized_keys: "Unknown field",
  invalid_union: "Invalid value",
  invalid_key: "Invalid key",
  invalid_element: "Invalid element",
  custom: "Invalid value",
};

function titleOf(code: string): string {
  return TITLES[code] ?? "Invalid value";
}

function escapePointerPart(part: string | number): string {
  return String(part).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** A path that already names `data` is relative to the document root; anything else sits under `basePointer`. */
export function buildPointer(path: readonly (string | number)[], basePointer = "/data/attributes"): string {
  const escaped = path.map(escapePointerPart);
  if (path[0] === "data") return "/" + escaped.join("/");
  return [basePointer, ...escaped].join("/");
}

export function fieldErrorsToJsonApi(errors: FieldError[], basePointer = "/data/attributes"): JsonApiError[] {
  return errors.map((error) => {
    const code = error.code ?? "invalid";
    return {
      status: "422",
      code,
      title: titleOf(code),
      detail: error.message,
      source: { pointer: buildPointer(error.path, basePointer) },
    };
  });
}

type ZodIssueLike = { path: readonly PropertyKey[]; message: string; code?: string; keys?: readonly string[] };

/** zod reports a missing field as `invalid_type`; clients deserve the plainer, stable `required`. */
function codeOfIssue(issue: ZodIssueLike): string {
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) return "required";
  return issue.code ?? "invalid";
}

export function zodIssuesToJsonApi(issues: readonly ZodIssueLike[], basePointer = "/data/attributes"): JsonApiError[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
    // One unrecognized_keys issue covers several fields; split it so each field gets its own pointer.
    const fields: FieldError[] =
      issue.code === "unrecognized_keys" && issue.keys?.length
        ? issue.keys.map((key) => ({ path: [...path, key], message: `Unknown field "${key}"`, code: "unrecognized_keys" }))
        : [{ path, message: issue.message, code: codeOfIssue(issue) }];
    return fieldErrorsToJsonApi(fields, basePointer);
  });
}

export function errorResponse(status: number, errors: JsonApiError[], requestId: string, headers?: HeadersInit): Response {
  const responseHeaders = new Headers(headers);
  responseHeaders.set("Content-Type", JSON_API_CONTENT_TYPE);
  responseHeaders.set("X-Request-Id", requestId);
  return new Response(JSON.stringify({ errors, meta: { request_id: requestId } }), { status, headers: responseHeaders });
}

function singleError(status: number, code: string, title: string, detail: string, requestId: string): Response {
  return errorResponse(status, [{ status: String(status), code, title, detail }], requestId);
}

export function handleApiError(error: unknown, requestId: string): Response {
  if (error instanceof ApiError) return errorResponse(error.status, [error.toJsonApi()], requestId);
  if (error instanceof ApiValidationError) return errorResponse(error.status, error.errors, requestId);
  if (error instanceof ForbiddenError) {
    return singleError(403, "forbidden", "Forbidden", error.message || "This resource belongs to another merchant.", requestId);
  }
  if (error instanceof NotFoundError) {
    return singleError(404, "not_found", "Not found", error.message || "The resource does not exist.", requestId);
  }
  // The stack goes to the log (redacted there) and never to the client: it names internals.
  logger.error("unhandled API error", {
    requestId,
    error,
    stack: error instanceof Error ? error.stack : undefined,
  });
  return singleError(
    500,
    "internal_error",
    "Internal error",
    "The service could not complete the request. Quote the request id when asking for help.",
    requestId,
  );
}
