import { expect, test } from "@playwright/test";
import { connect } from "node:net";
import { sharedTest } from "./support/fixtures";

/**
 * Paths under /api that no route serves answer a JSON:API
 * 404 with X-Request-Id, not Next's HTML page; OPTIONS on the invoice API carries X-Request-Id too.
 */
for (const path of ["/api", "/api/", "/api/connections/x/y", "/api/routing/a/b", "/api/nothing", "/api/providers/x", "/api/commerce/nothing"]) {
  test(`${path} answers a JSON:API 404 with its request id`, async ({ request }) => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      const answer = await request.fetch(path, { method, headers: { accept: "application/vnd.api+json" } });
      expect(answer.status(), `${method} ${path}`).toBe(404);
      expect(answer.headers()["content-type"]).toContain("application/vnd.api+json");
      const requestId = answer.headers()["x-request-id"];
      expect(requestId).toMatch(/^req_/);
      expect(answer.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers()["cache-control"]).toBe("no-store");
      const body = await answer.json();
      expect(body.errors[0]).toMatchObject({ status: "404", code: "not_found" });
      expect(body.meta.request_id).toBe(requestId);
    }
  });
}

// Found by the bad-input suite: Next answered these with a bare 308 (or, for /api, a redirect to sign-in).
sharedTest("an API path with a trailing or doubled slash names the same resource, with its request id", async ({ request, merchant }) => {
  const headers = { authorization: `Bearer ${merchant.apiKey}`, accept: "application/vnd.api+json" };
  for (const path of ["/api/connections", "/api/routing", "/api/commerce/payment-invoices?page[size]=1"]) {
    const plain = await request.get(path, { headers, maxRedirects: 0 });
    for (const variant of [path.replace(/(\?|$)/, "/$1"), path.replace("/api/", "/api//"), path.replace(/(\?|$)/, "//$1")]) {
      const answer = await request.get(variant, { headers, maxRedirects: 0 });
      expect(answer.status(), variant).toBe(200);
      expect(answer.headers()["x-request-id"], variant).toMatch(/^req_/);
      // The same resources (ids): a background job may move an invoice's status between the two reads.
      const ids = async (response: typeof answer) => ((await response.json()) as { data: { id: string }[] }).data.map((item) => item.id);
      expect(await ids(answer), variant).toEqual(await ids(plain));
    }
  }
  // A write is answered by the route too, not redirected: here refused for want of a key, as at the bare path.
  const unauthenticated = await request.post("/api/connections/", { data: {}, maxRedirects: 0 });
  expect(unauthenticated.status()).toBe(401);
  expect(unauthenticated.headers()["x-request-id"]).toMatch(/^req_/);
});

test("a malformed multipart body to an /api path no route serves is a JSON:API 404, not Next's 500", async ({ request }) => {
  for (const path of ["/api/routing/a/b", "/api", "/api/"]) {
    const answer = await request.fetch(path, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x" },
      data: "garbage",
      maxRedirects: 0,
    });
    expect(answer.status(), path).toBe(404);
    expect(answer.headers()["x-request-id"], path).toMatch(/^req_/);
    expect((await answer.json()).errors[0].code, path).toBe("not_found");
  }
});

test("OPTIONS on the invoice API lists the methods and carries X-Request-Id", async ({ request }) => {
  const answer = await request.fetch("/api/commerce/payment-invoices", { method: "OPTIONS" });
  expect(answer.status()).toBe(204);
  expect(answer.headers()["allow"]).toContain("POST");
  expect(answer.headers()["x-request-id"]).toMatch(/^req_/);
});

/** A raw HTTP/1.1 exchange: Node's parser refuses these before any route, so no HTTP client library would send them. */
async function rawExchange(baseURL: string, request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const base = new URL(baseURL);
  const socket = connect(Number(base.port), base.hostname);
  socket.write(request);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const [head = "", body = ""] = text.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

test("headers over 16 KiB and a request that is not HTTP get a JSON:API error with a request id, not a bare status line", async ({ baseURL }) => {
  const cases = [
    { request: `GET /api/commerce/payment-invoices HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`, status: 431, code: "headers_too_large" },
    { request: "GET /api/commerce HTTP/1.1\r\nHost x\r\n\r\n", status: 400, code: "bad_request" },
  ];
  for (const { request, status, code } of cases) {
    const answer = await rawExchange(baseURL!, request);
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toBe("application/vnd.api+json");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(answer.headers["x-frame-options"]).toBe("DENY");
    expect(answer.headers["cache-control"]).toBe("no-store");
    const requestId = answer.headers["x-request-id"];
    expect(requestId).toMatch(/^req_/);
    const body = JSON.parse(answer.body) as { errors: { status: string; code: string }[]; meta: { request_id: string } };
    expect(body.errors[0]).toMatchObject({ status: String(status), code });
    expect(body.meta.request_id).toBe(requestId);
  }
  // Found by the bad-input suite: a HEAD got the body too, which a client reads as the next answer.
  const head = await rawExchange(baseURL!, `HEAD /api/commerce/payment-invoices HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`);
  expect(head.status).toBe(431);
  expect(head.headers["x-request-id"]).toMatch(/^req_/);
  expect(head.body).toBe("");
});
