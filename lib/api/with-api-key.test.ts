import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { authenticateApiKey } from "@/lib/api-keys/queries";
import { logger } from "@/lib/logger";
import type { Merchant } from "@/lib/identity/membership";
import { ApiError } from "./errors";
import { RATE_LIMIT_BURST, resetRateLimits } from "./rate-limit";
import { jsonApi } from "./responses";
import { withApiKey } from "./with-api-key";
import { withPublic } from "./with-public";

vi.mock("@/lib/api-keys/queries", () => ({ authenticateApiKey: vi.fn() }));
vi.mock("@/lib/db/client", () => ({ getDb: vi.fn(async () => ({ fake: "db" })) }));
// The request log is written to a database, which this fake is not (tests/integration/request-log.test.ts covers it).
vi.mock("@/lib/request-log/writer", () => ({ logRequest: vi.fn(), RAW_BODY_LIMIT: 64 * 1024 }));

const merchant = { id: "mer_1", name: "Shop" } as unknown as Merchant;
const GOOD_KEY = "pok_good";
const authenticate = vi.mocked(authenticateApiKey);

function call(route: ReturnType<typeof withApiKey<{ id: string }>>, headers: Record<string, string> = {}, query = "") {
  const request = new Request(`http://localhost/api/commerce/payment-invoices/cpi_1${query}`, { headers });
  return route(request, { params: Promise.resolve({ id: "cpi_1" }) });
}

const bearer = (key = GOOD_KEY, requestId = "client-req-1") => ({ authorization: `Bearer ${key}`, "x-request-id": requestId });

async function errorOf(response: Response) {
  const body = (await response.json()) as { errors: { code: string; detail: string }[]; meta: { request_id: string } };
  return { status: response.status, code: body.errors[0]!.code, detail: body.errors[0]!.detail, body };
}

beforeEach(() => {
  // Only Date is frozen, so the token bucket does not refill while the burst is being spent.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
  resetRateLimits();
  vi.restoreAllMocks();
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "error").mockImplementation(() => {});
  authenticate.mockReset();
  authenticate.mockImplementation(async (_db, key) =>
    key === GOOD_KEY ? { merchant, keyId: "key_1", keyMode: "test", readOnly: false, testOnly: false, session: false } : undefined,
  );
});

afterEach(() => vi.useRealTimers());

const echo = withApiKey<{ id: string }>(async ({ params, merchant: m, keyId, requestId, db }) =>
  jsonApi({ data: { id: params.id, merchant: m.id, keyId, requestId, db } }),
);

describe("withApiKey", () => {
  it("answers 401 unauthorized with WWW-Authenticate when the header is missing", async () => {
    const response = await call(echo, { "x-request-id": "r-missing" });
    expect(await errorOf(response)).toMatchObject({ status: 401, code: "unauthorized" });
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(response.headers.get("x-request-id")).toBe("r-missing");
    expect(authenticate).not.toHaveBeenCalled();
  });

  it("answers 401 unauthorized for a malformed header", async () => {
    for (const authorization of ["Basic abc", "Bearer", "Bearer a b", GOOD_KEY]) {
      const response = await call(echo, { authorization, "x-request-id": "r-bad-header" });
      expect(await errorOf(response)).toMatchObject({ status: 401, code: "unauthorized" });
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(response.headers.get("x-request-id")).toBe("r-bad-header");
    }
  });

  it("answers 401 invalid_api_key for an unknown or revoked key", async () => {
    const response = await call(echo, bearer("pok_revoked", "r-bad-key"));
    expect(await errorOf(response)).toMatchObject({ status: 401, code: "invalid_api_key" });
    expect(response.headers.get("x-request-id")).toBe("r-bad-key");
  });

  it("passes merchant, key id, params, db and request id to the handler", async () => {
    const response = await call(echo, bearer(GOOD_KEY, "r-ok"));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("r-ok");
    expect(await response.json()).toEqual({ data: { id: "cpi_1", merchant: "mer_1", keyId: "key_1", requestId: "r-ok", db: { fake: "db" } } });
    expect(authenticate).toHaveBeenCalledWith({ fake: "db" }, GOOD_KEY);
  });

  it("lets a read-only key GET and HEAD, refuses anything else with 403 insufficient_scope before the handler runs, and hands on the key's mode", async () => {
    authenticate.mockImplementation(async () => ({ merchant, keyId: "key_ro", keyMode: "live", readOnly: true, testOnly: false, session: false }));
    const handler = vi.fn(async ({ keyMode }: { keyMode: string | undefined }) => jsonApi({ data: { keyMode } }));
    const route = withApiKey<{ id: string }>(handler);
    const at = (method: string) =>
      route(new Request("http://localhost/api/commerce/payment-invoices/cpi_1", { method, headers: bearer() }), { params: Promise.resolve({ id: "cpi_1" }) });
    expect(await (await at("GET")).json()).toEqual({ data: { keyMode: "live" } });
    expect((await at("HEAD")).status).toBe(200);
    handler.mockClear();
    for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
      expect(await errorOf(await at(method))).toMatchObject({ status: 403, code: "insufficient_scope" });
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it("maps a thrown ApiError to its status", async () => {
    const route = withApiKey<{ id: string }>(async () => {
      throw new ApiError(404, "invoice_not_found", "Not found", "No invoice cpi_1");
    });
    const response = await call(route, bearer(GOOD_KEY, "r-404"));
    expect(await errorOf(response)).toMatchObject({ status: 404, code: "invoice_not_found", body: { meta: { request_id: "r-404" } } });
    expect(response.headers.get("x-request-id")).toBe("r-404");
  });

  it("hides an unknown error behind a 500 without its message", async () => {
    const route = withApiKey<{ id: string }>(async () => {
      throw new Error("connection to 10.0.0.7 refused");
    });
    const response = await call(route, bearer(GOOD_KEY, "r-500"));
    const error = await errorOf(response);
    expect(error).toMatchObject({ status: 500, code: "internal_error" });
    expect(JSON.stringify(error.body)).not.toContain("10.0.0.7");
    expect(response.headers.get("x-request-id")).toBe("r-500");
  });

  it("answers 429 with Retry-After once the burst is spent", async () => {
    for (let i = 0; i < RATE_LIMIT_BURST; i++) expect((await call(echo, bearer())).status).toBe(200);
    const response = await call(echo, bearer(GOOD_KEY, "r-429"));
    expect(await errorOf(response)).toMatchObject({ status: 429, code: "rate_limited" });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(response.headers.get("x-request-id")).toBe("r-429");
  });

  it("sets a fresh request id when the client sends none", async () => {
    const response = await call(echo, { authorization: `Bearer ${GOOD_KEY}` });
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("copies a response whose headers are immutable to add the request id", async () => {
    const route = withApiKey<{ id: string }>(async () => Response.redirect("http://localhost/elsewhere", 303));
    const response = await call(route, bearer(GOOD_KEY, "r-redirect"));
    expect(response.status).toBe(303);
    expect(response.headers.get("x-request-id")).toBe("r-redirect");
  });

  it("logs one line with method, path, status, duration and request id, without headers or query", async () => {
    const route = withApiKey<{ id: string }>(async () => jsonApi({ data: null }), { query: ["secret"] });
    expect((await call(route, bearer(GOOD_KEY, "r-log"), "?secret=x")).status).toBe(200);
    expect(logger.info).toHaveBeenCalledTimes(1);
    const [, fields] = vi.mocked(logger.info).mock.calls[0]!;
    expect(fields).toEqual({ method: "GET", path: "/api/commerce/payment-invoices/cpi_1", status: 200, durationMs: expect.any(Number), requestId: "r-log" });
    expect(JSON.stringify(fields)).not.toContain(GOOD_KEY);
  });
});

describe("withApiKey: JSON:API query parameters and media types", () => {
  it("answers 400 naming each query parameter the route does not document, include and sort included", async () => {
    const response = await call(echo, bearer(GOOD_KEY, "r-query"), "?include=connection&sort=-created&foo=1");
    const { status, body } = await errorOf(response);
    expect(status).toBe(400);
    expect(body.meta.request_id).toBe("r-query");
    expect((body.errors as unknown as { code: string; source: { parameter: string } }[]).map((e) => [e.code, e.source.parameter])).toEqual([
      ["unsupported_parameter", "include"],
      ["unsupported_parameter", "sort"],
      ["unknown_parameter", "foo"],
    ]);
  });

  it("answers 415 for a JSON:API Content-Type with a parameter other than ext or profile, and for ext", async () => {
    for (const contentType of [
      "application/vnd.api+json; charset=utf-8",
      "application/vnd.api+json;version=1",
      'application/vnd.api+json; ext="https://example.com/ext"',
    ]) {
      const response = await call(echo, { ...bearer(), "content-type": contentType });
      expect(await errorOf(response)).toMatchObject({ status: 415, code: "unsupported_media_type" });
    }
    const profiled = await call(echo, { ...bearer(), "content-type": 'application/vnd.api+json; profile="https://example.com/p"' });
    expect(profiled.status).toBe(200);
  });

  it("answers 406 only when every JSON:API media type in Accept carries an unsupported parameter", async () => {
    const refused = await call(echo, { ...bearer(), accept: "application/vnd.api+json; charset=utf-8, application/vnd.api+json; v=2" });
    expect(await errorOf(refused)).toMatchObject({ status: 406, code: "not_acceptable" });
    for (const accept of [
      "application/vnd.api+json; charset=utf-8, application/vnd.api+json",
      "application/vnd.api+json;q=0.9",
      'application/vnd.api+json; profile="https://example.com/p"',
      "application/json, */*",
    ]) {
      expect((await call(echo, { ...bearer(), accept })).status, accept).toBe(200);
    }
  });
});

describe("withPublic", () => {
  const route = withPublic<{ id: string }>(async ({ params, requestId }) => jsonApi({ id: params.id, requestId }));
  const callPublic = (headers: Record<string, string>) =>
    route(new Request("http://localhost/api/public/x", { headers }), { params: Promise.resolve({ id: "p1" }) });

  it("runs the handler with params and request id, without authentication", async () => {
    const response = await callPublic({ "x-request-id": "r-pub" });
    expect(await response.json()).toEqual({ id: "p1", requestId: "r-pub" });
    expect(response.headers.get("x-request-id")).toBe("r-pub");
  });

  it("rate limits per forwarded client address", async () => {
    const from = (address: string) => ({ "x-forwarded-for": `${address}, 10.0.0.1` });
    for (let i = 0; i < RATE_LIMIT_BURST; i++) await callPublic(from("203.0.113.9"));
    expect((await callPublic(from("203.0.113.9"))).status).toBe(429);
    expect((await callPublic(from("198.51.100.4"))).status).toBe(200);
  });
});
