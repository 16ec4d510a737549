import { createRequire } from "node:module";
import Ajv, { type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { hasMalformedEscape, isApiPath } from "@/lib/http/paths";
import { buildOpenApiDocument } from "@/lib/api/openapi";

/**
 * Every answer the API test suites see is held to two documents:
 * - our own OpenAPI document (the one /api/commerce/openapi.json serves): the path and method must
 *   be an operation (or the answer a 405/204 for a method the path does not list), the status one
 *   the operation documents, the Content-Type one it lists, the body valid against its schema, and
 *   headers it marks required present;
 * - the official JSON:API schema (jsonapi-validator ships it: draft-06; its link rules brought up to
 *   the official 1.0 schema's), for every JSON:API body.
 * Plus what every answer promises: X-Request-Id, and meta.request_id equal to it on errors; and the
 * headers the OWASP REST Security Cheat Sheet lists for JSON APIs, which the document's description
 * promises on every answer.
 */

type Json = Record<string, unknown>;

export type ApiExchange = {
  method: string;
  /** Path and query as requested, e.g. /api/commerce/payment-invoices?filter[status]=created. */
  url: string;
  status: number;
  headers: Headers;
  /** The body text as received ("" when there is none). */
  body: string;
};

const require = createRequire(import.meta.url);

/** Written out here rather than imported from lib/api, so weakening the server's values fails the suites. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};
const JSON_API = "application/vnd.api+json";
const OPENAPI_ID = "https://openapi.local/document.json";

let jsonApiValidator: ValidateFunction | undefined;

function jsonApiSchema(): ValidateFunction {
  if (!jsonApiValidator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as Json);
    addFormats(ajv);
    // The shipped schema is JSON:API 1.0's, whose `links` forbid null although its own pagination links
    // allow it (and 1.1 allows null for any link that does not exist): `next` is null on a last page.
    const schema = structuredClone(require("jsonapi-validator/lib/schema.json")) as { definitions: Record<string, Json> };
    const definitions = schema.definitions;
    (definitions.link!.oneOf as unknown[]).push({ type: "null" });
    // It also predates the link rules of the official JSON:API 1.0 schema (jsonapi.org/schemas), which
    // name the members each links object may hold and no other: a resource's links only `self` (a
    // related resource is a relationship with a `related` link); a relationship's `self`, `related` and
    // pagination links; a document's `self`, `related` and pagination links.
    const link = { $ref: "#/definitions/link" };
    const pagination = { first: link, last: link, prev: link, next: link };
    const only = (properties: Json): Json => ({ type: "object", properties, additionalProperties: false });
    (definitions.resource!.properties as Json).links = only({ self: link });
    definitions.relationshipLinks = only({ self: link, related: link, ...pagination });
    (definitions.success!.properties as Json).links = only({ self: link, related: link, ...pagination });
    jsonApiValidator = ajv.compile(schema);
  }
  return jsonApiValidator;
}

type OpenApi = { doc: Json; ajv: Ajv2020; validators: Map<string, ValidateFunction> };
let openApi: OpenApi | undefined;

/** The document as the server builds it (the base URL does not change any schema). */
function openApiDocument(): OpenApi {
  if (!openApi) {
    const doc = buildOpenApiDocument({ baseUrl: "http://openapi.local" });
    // multipleOf 0.01 on amounts: without a precision, 100.1 would fail on binary floating point.
    const ajv = new Ajv2020({ allErrors: true, strict: false, multipleOfPrecision: 8 });
    addFormats(ajv);
    ajv.addSchema({ $id: OPENAPI_ID, components: doc.components }, OPENAPI_ID);
    openApi = { doc, ajv, validators: new Map() };
  }
  return openApi;
}

function validatorFor(schema: Json): ValidateFunction {
  const api = openApiDocument();
  const key = JSON.stringify(schema);
  let validate = api.validators.get(key);
  if (!validate) {
    const ref = typeof schema.$ref === "string" ? `${OPENAPI_ID}${schema.$ref}` : undefined;
    validate = ref ? api.ajv.compile({ $ref: ref }) : api.ajv.compile({ $id: `${OPENAPI_ID}/inline/${api.validators.size}`, ...schema });
    api.validators.set(key, validate);
  }
  return validate;
}

/** `#/components/responses/X` → the response object. */
function resolve(value: Json): Json {
  const ref = value.$ref;
  if (typeof ref !== "string") return value;
  const [, section = "", name = ""] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
  return ((openApiDocument().doc.components as Record<string, Record<string, Json>>)[section]?.[name] ?? {}) as Json;
}

/** The documented path template matching a concrete path, e.g. /api/commerce/payment-invoices/{id}. */
function findPathItem(pathname: string): { template: string; item: Json } | undefined {
  const paths = openApiDocument().doc.paths as Record<string, Json>;
  for (const [template, item] of Object.entries(paths)) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`);
    if (pattern.test(pathname)) return { template, item };
  }
  return undefined;
}

const mediaTypeOf = (headers: Headers) => (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();

function errorsOf(validate: ValidateFunction): string {
  return JSON.stringify(validate.errors?.slice(0, 5));
}

/** Problems found with one answer; empty when it conforms. */
export function apiResponseProblems(exchange: ApiExchange): string[] {
  const problems: string[] = [];
  const { status, headers, body } = exchange;
  const method = exchange.method.toUpperCase();
  const url = new URL(exchange.url, "http://validator.local");
  const where = `${method} ${url.pathname} → ${status}`;
  const requestId = headers.get("x-request-id");
  if (!requestId) problems.push(`${where}: no X-Request-Id header`);
  // Under /api only: a page's JSON (the hosted page's status poll) keeps the page's own policy.
  if (isApiPath(url.pathname)) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (headers.get(name) !== value) problems.push(`${where}: ${name} is ${JSON.stringify(headers.get(name))}, not ${JSON.stringify(value)}`);
    }
  }

  const bodyless = method === "HEAD" || status === 204 || status === 304;
  if (bodyless && body !== "") problems.push(`${where}: a body where none is allowed`);

  let parsed: unknown;
  // The invoice and dispute lists answer Accept: text/csv with CSV (lib/invoices/export, lib/disputes/list.ts): checked against the documented media type below, not parsed.
  const csv = mediaTypeOf(headers) === "text/csv" && status === 200;
  const csvHeader = url.pathname.replace(/\/+$/, "") === "/api/commerce/disputes" ? /^\uFEFF?id,status,amount,/ : /^\uFEFF?id,type,status,/;
  if (csv && !csvHeader.test(body) && method !== "HEAD") problems.push(`${where}: a CSV answer must start with its header line`);
  if (!bodyless && !csv) {
    try {
      parsed = JSON.parse(body);
    } catch {
      problems.push(`${where}: the body is not JSON: ${body.slice(0, 80)}`);
      return problems;
    }
  }
  const mediaType = mediaTypeOf(headers);
  if (!bodyless && mediaType === JSON_API) {
    if (!jsonApiSchema()(parsed)) problems.push(`${where}: not a JSON:API document: ${errorsOf(jsonApiSchema())}`);
    const document = parsed as { errors?: unknown; meta?: { request_id?: unknown } };
    if (document.errors !== undefined && document.meta?.request_id !== requestId) {
      problems.push(`${where}: meta.request_id ${String(document.meta?.request_id)} is not the X-Request-Id ${String(requestId)}`);
    }
  }

  // The document's description: answers given before any route, on any path and method. Headers over
  // 16 KiB are refused by the HTTP parser; over HTTP, server.ts answers an undecodable path 400 (a
  // route module called in-process answers such a path for itself).
  const beforeRouting = status === 431 ? "headers_too_large" : status === 400 && hasMalformedEscape(url.pathname) ? "malformed_path" : undefined;
  if (beforeRouting) {
    const code = (parsed as { errors?: { code?: unknown }[] } | undefined)?.errors?.[0]?.code;
    if (!bodyless && code !== beforeRouting) problems.push(`${where}: a ${status} given before routing must be ${beforeRouting}, got ${String(code)}`);
    return problems;
  }
  const found = findPathItem(url.pathname);
  if (!found) return problems;
  const operation = found.item[method === "HEAD" ? "get" : method.toLowerCase()] as Json | undefined;
  if (!operation) {
    // A method the path does not list: 405 with Allow (OPTIONS: 204 with Allow), as the document says.
    const expected = method === "OPTIONS" ? 204 : 405;
    if (status !== expected) problems.push(`${where}: ${method} is not an operation of ${found.template}; expected ${expected}`);
    if (!headers.get("allow")) problems.push(`${where}: no Allow header`);
    if (status === 405 && mediaType !== JSON_API) problems.push(`${where}: a 405 must be a JSON:API error document`);
    return problems;
  }
  const responses = operation.responses as Record<string, Json>;
  const documented = responses[String(status)];
  if (!documented) {
    problems.push(`${where}: status ${status} is not documented for ${method} ${found.template} (documented: ${Object.keys(responses).join(", ")})`);
    return problems;
  }
  const response = resolve(documented);
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    if (header.required === true && !headers.get(name)) problems.push(`${where}: the documented header ${name} is missing`);
  }
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  if (bodyless) return problems;
  if (!content) {
    problems.push(`${where}: the document gives this status no body, but one came`);
    return problems;
  }
  const entry = content[mediaType];
  if (!entry) {
    problems.push(`${where}: Content-Type ${mediaType || "(none)"} is not documented (documented: ${Object.keys(content).join(", ")})`);
    return problems;
  }
  if (entry.schema && !csv) {
    const validate = validatorFor(entry.schema);
    if (!validate(parsed)) problems.push(`${where}: the body does not match the documented schema: ${errorsOf(validate)}`);
  }
  return problems;
}

/** Throws with every problem found; the API test suites call it on each answer they receive. */
export function assertValidApiResponse(exchange: ApiExchange): void {
  const problems = apiResponseProblems(exchange);
  if (problems.length > 0) throw new Error(`API answer breaks its contract:\n- ${problems.join("\n- ")}`);
}

/** Validates a request body against the documented request schema of an operation (for the conformance tests). */
export function requestBodyProblems(path: string, method: string, body: unknown): string[] {
  const found = findPathItem(path);
  const operation = found?.item[method.toLowerCase()] as Json | undefined;
  const content = (operation?.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
  const schema = content?.[JSON_API]?.schema;
  if (!schema) return [`${method} ${path} documents no request body`];
  const validate = validatorFor(schema);
  return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}
