import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { logger } from "@/lib/logger";
import { COMMERCE_ROUTES, matchCommerceRoute, type RouteModule } from "@/server/commerce-routes";
import { serveCommerce } from "@/server/serve-commerce";

/**
 * The lean path (server.ts, `npm start`) and Next (`next dev`) must serve /api/commerce alike: the
 * table in server/commerce-routes.ts is held to the route files here, and unknown paths and
 * methods answer JSON:API on both.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const commerceDir = path.join(root, "app/api/commerce");

/** `app/api/commerce/payment-invoices/[id]/route.ts` → `/api/commerce/payment-invoices/[id]`. */
const routeFiles = (fs.readdirSync(commerceDir, { recursive: true }) as string[])
  .filter((file) => path.basename(file) === "route.ts")
  .map((file) => ({
    file: path.join(commerceDir, file),
    route:
      "/" +
      path
        .relative(path.join(root, "app"), path.join(commerceDir, path.dirname(file)))
        .split(path.sep)
        .join("/"),
  }))
  .sort((a, b) => a.route.localeCompare(b.route));

/** A concrete path for a route: dynamic segments get values no static route uses. */
function samplePath(route: string): string {
  return route
    .replace(/\/\[\[\.\.\.\w+\]\]/, "/no-such-resource/deeper")
    .replace(/\[\.\.\.\w+\]/, "no-such-resource/deeper")
    .replace(/\[\w+\]/g, "sample-id");
}

const methodsOf = (module: RouteModule) => Object.keys(module).filter((k) => /^[A-Z]+$/.test(k));

describe("the lean path's route table", () => {
  it("lists exactly the route files under app/api/commerce", () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(6);
    expect(COMMERCE_ROUTES.map((r) => r.route).sort()).toEqual(routeFiles.map((r) => r.route).sort());
  });

  it.each(routeFiles)("hands every method of $route to that file's own handler", async ({ file, route }) => {
    const routeModule = (await import(/* @vite-ignore */ file)) as RouteModule;
    const methods = methodsOf(routeModule);
    expect(methods.length).toBeGreaterThan(0);
    for (const method of methods) {
      const match = matchCommerceRoute(method, samplePath(route));
      expect(match?.handler, `${method} ${samplePath(route)}`).toBe(routeModule[method]);
    }
  });

  // Under `npm start` only routes marked readsBody get the body; one that reads it unmarked would get none.
  it.each(routeFiles)("marks $route as reading a body exactly when its file reads one", ({ file, route }) => {
    const reads = /readJsonBody\(|readMultipartBody\(|request\.(?:json|text|formData|arrayBuffer|blob)\(|request\.body\b/.test(fs.readFileSync(file, "utf8"));
    expect(COMMERCE_ROUTES.find((r) => r.route === route)?.readsBody === true, route).toBe(reads);
  });

  it("passes decoded params the way Next does", () => {
    expect(matchCommerceRoute("GET", "/api/commerce/payment-invoices/cpi%5F1")?.params).toEqual({ id: "cpi_1" });
    expect(matchCommerceRoute("GET", "/api/commerce/payment-invoices/cpi_1/")?.params).toEqual({ id: "cpi_1" });
    expect(matchCommerceRoute("GET", "/api/commerce/payment-invoices/%E0%A4%A")?.params).toEqual({ id: "%E0%A4%A" });
    expect(matchCommerceRoute("GET", "/api/commerce/nope/x%2Fy")?.params).toEqual({ rest: ["nope", "x/y"] });
    expect(matchCommerceRoute("GET", "/api/commerce")?.params).toEqual({});
    expect(matchCommerceRoute("GET", "/api/commercial")).toBeUndefined();
  });
});

type Answer = {
  status: number;
  headers: Headers;
  text: string;
  json: { errors?: { status: string; code: string; detail: string }[]; meta?: { request_id: string } };
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    void serveCommerce(req, res, pathname, "http://127.0.0.1").then((served) => {
      if (!served) res.writeHead(599).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
  return () => vi.restoreAllMocks();
});

async function call(method: string, pathname: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const response = await fetch(base + pathname, { method, ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : {} };
}

/**
 * A POST over node:http with Transfer-Encoding: chunked and no Content-Length, 16 KiB at a time;
 * resolves once the answer is read to its end, and fails if the connection is reset first.
 */
function postChunked(url: string, totalBytes: number): Promise<{ status: number; headers: Headers; text: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const request = http.request(url, { method: "POST", headers: { "content-type": "application/json", "x-request-id": "chunked-413" } });
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") headers.set(name, value);
        resolve({ status: response.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8"), sent });
      });
    });
    const chunk = Buffer.alloc(16 * 1024, "x");
    const writeMore = () => {
      while (sent < totalBytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

function expectJsonApiError(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toBe("application/vnd.api+json");
  expect(answer.json.errors).toEqual([expect.objectContaining({ status: String(status), code })]);
  expect(answer.headers.get("x-request-id")).toMatch(/\S/);
  expect(answer.json.meta?.request_id).toBe(answer.headers.get("x-request-id"));
}

describe("the lean path (server.ts)", () => {
  it.each([
    ["GET", "/api/commerce/nope"],
    ["POST", "/api/commerce/payment-invoices/x/y"],
    ["DELETE", "/api/commerce/payout-invoices/x/y/z"],
    ["GET", "/api/commerce"],
    ["GET", "/api/commerce/"],
  ])("answers %s %s with a JSON:API 404", async (method, pathname) => {
    expectJsonApiError(await call(method, pathname), 404, "not_found");
  });

  it("answers a known path with a wrong method with a JSON:API 405 naming the allowed ones", async () => {
    const answer = await call("DELETE", "/api/commerce/payment-invoices");
    expectJsonApiError(answer, 405, "method_not_allowed");
    expect(answer.headers.get("allow")!.split(", ").sort()).toEqual(["GET", "HEAD", "OPTIONS", "POST"]);
    expect((await call("PUT", "/api/commerce/openapi.json")).headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("answers HEAD with GET's handler and OPTIONS with the allowed methods, like Next", async () => {
    const head = await call("HEAD", "/api/commerce/openapi.json");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    const options = await call("OPTIONS", "/api/commerce/payout-invoices/sample-id");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("keeps the caller's request id and serves the known routes", async () => {
    const answer = await call("GET", "/api/commerce/nope", { headers: { "x-request-id": "client-id-123" } });
    expect(answer.headers.get("x-request-id")).toBe("client-id-123");
    const openapi = await call("GET", "/api/commerce/openapi.json");
    expect(openapi.status).toBe(200);
    expect(openapi.text).toContain('"openapi"');
  });

  it("answers a body over 64 KiB with a JSON:API 413 before any handler runs", async () => {
    const answer = await call("POST", "/api/commerce/payment-invoices", { headers: { "content-type": "application/json" }, body: "x".repeat(70_000) });
    expectJsonApiError(answer, 413, "payload_too_large");
  });

  // Found by the bad-input suite: the process endpoint answered 413, which its document does not list.
  it("gives a body over 64 KiB sent where no handler reads one the answer the document lists there, not a 413", async () => {
    const body = "[".repeat(70_000);
    const headers = { "content-type": "application/vnd.api+json" };
    expectJsonApiError(await call("POST", "/api/commerce/payout-invoices/cpoi_nothing/process", { headers, body }), 401, "unauthorized");
    expectJsonApiError(await call("PUT", "/api/commerce/payment-invoices", { headers, body }), 405, "method_not_allowed");
    expectJsonApiError(await call("DELETE", "/api/commerce/nope", { headers, body }), 404, "not_found");
    const options = await call("OPTIONS", "/api/commerce/payment-invoices", { headers, body });
    expect(options.status).toBe(204);
    // Where a body is read, the limit holds.
    expectJsonApiError(await call("POST", "/api/commerce/payout-invoices", { headers, body }), 413, "payload_too_large");
  });

  it("answers a body streamed in chunks past 64 KiB (no Content-Length) with a 413 the client reads in full", async () => {
    const answer = await postChunked(`${base}/api/commerce/payment-invoices`, 1024 * 1024);
    expect(answer.sent).toBe(1024 * 1024);
    expectJsonApiError({ ...answer, json: JSON.parse(answer.text) }, 413, "payload_too_large");
  });

  it("leaves every other path to Next", async () => {
    expect((await call("GET", "/api/commercial")).status).toBe(599);
  });
});

describe("the catch-all route module (next dev)", () => {
  it("answers every method it exports with a JSON:API 404", async () => {
    const catchAll = (await import("@/app/api/commerce/[[...rest]]/route")) as unknown as RouteModule;
    expect(methodsOf(catchAll).sort()).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"]);
    for (const method of methodsOf(catchAll)) {
      const response = await catchAll[method]!(new Request("http://test/api/commerce/nope/x", { method }), {
        params: Promise.resolve({ rest: ["nope", "x"] }),
      });
      const text = await response.text();
      expectJsonApiError({ status: response.status, headers: response.headers, text, json: JSON.parse(text) }, 404, "not_found");
    }
  });
});
