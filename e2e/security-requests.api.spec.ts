import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { killAppServer, startAppServer, type AppServer } from "./support/app-server";
import { findFreePort } from "./support/dev-server";

/**
 * Requests an attacker would send, over real HTTP (node:http, so the path and headers go out exactly as written):
 * malformed percent-escapes in every dynamic route answer 400 or 404, never 500; a forged
 * X-Forwarded-For neither escapes the sign-in limit nor locks someone else's address; with
 * TRUST_PROXY_HOPS and an https APP_URL the client is read from the proxies' entries, the session
 * cookie is __Secure- and Secure, and HSTS is sent.
 */
const BASE = new URL(`http://127.0.0.1:${process.env.E2E_PORT ?? 3107}`);

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function send(
  base: URL,
  method: string,
  rawPath: string,
  options: { headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: base.hostname, port: base.port, method, path: rawPath, headers: options.headers, localAddress: options.localAddress },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** Every page and route of app/ whose path has a [param] segment, with that segment replaced by `value`. */
function dynamicRoutes(): { route: string; kind: "page" | "route"; paths: (value: string) => string[] }[] {
  const found: { route: string; kind: "page" | "route"; paths: (value: string) => string[] }[] = [];
  const walk = (dir: string, segments: string[]) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    const kind = files.has("page.tsx") ? "page" : files.has("route.ts") ? "route" : undefined;
    const dynamic = segments.map((s, i) => (s.startsWith("[") ? i : -1)).filter((i) => i >= 0);
    if (kind && dynamic.length) {
      const url = segments.filter((s) => !/^\(.*\)$/.test(s));
      const route = `/${url.join("/")}`;
      found.push({
        route,
        kind,
        paths: (value) =>
          url
            .map((s, i) => (s.startsWith("[") ? i : -1))
            .filter((i) => i >= 0)
            .map((target) => `/${url.map((s, i) => (i === target ? value : s.startsWith("[") ? "x" : s)).join("/")}`),
      });
    }
    for (const entry of entries) if (entry.isDirectory()) walk(path.join(dir, entry.name), [...segments, entry.name]);
  };
  walk(path.join(process.cwd(), "app"), []);
  return found;
}

const MALFORMED = ["%", "%zz", "%E0%A4%A", "%ff", "%C0%AF", "a%2", "%%41"];

test("a malformed percent-escape in any dynamic route answers 400 or 404, never 500", async () => {
  const routes = dynamicRoutes();
  // The issue's own examples are among them, generated from the folders.
  for (const expected of ["/invoices/[id]", "/pay/[id]", "/connections/[id]", "/api/commerce/payment-invoices/[id]", "/providers/[slug]"]) {
    expect(routes.map((r) => r.route)).toContain(expected);
  }
  const failures: string[] = [];
  for (const { route, kind, paths } of routes) {
    for (const value of MALFORMED) {
      for (const rawPath of paths(value)) {
        for (const method of kind === "route" ? ["GET", "POST"] : ["GET"]) {
          const answer = await send(BASE, method, rawPath, {
            headers: method === "POST" ? { "Content-Type": "application/json" } : {},
            body: method === "POST" ? "{}" : undefined,
          });
          if (answer.status !== 400 && answer.status !== 404) failures.push(`${method} ${rawPath} (${route}) → ${answer.status}`);
          if (rawPath.startsWith("/api/") && answer.status === 400) expect(answer.headers["content-type"]).toContain("json");
        }
      }
    }
  }
  expect(failures).toEqual([]);
  // The examples, literally.
  for (const rawPath of ["/invoices/%E0%A4%A", "/pay/%", "/connections/%zz", "/api/commerce/payment-invoices/%", "/providers/%ff"]) {
    expect((await send(BASE, "GET", rawPath)).status, rawPath).toBe(400);
  }
});

/** Signs in through next-auth's own endpoints: the answer's Location tells success, wrong password or limit. */
async function signInOver(base: URL, email: string, password: string, options: { localAddress?: string; forwardedFor?: string } = {}) {
  const extra: Record<string, string> = options.forwardedFor ? { "X-Forwarded-For": options.forwardedFor } : {};
  const csrf = await send(base, "GET", "/api/auth/csrf", { headers: extra, localAddress: options.localAddress });
  const csrfCookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const answer = await send(base, "POST", "/api/auth/callback/credentials", {
    localAddress: options.localAddress,
    headers: { ...extra, "Content-Type": "application/x-www-form-urlencoded", Cookie: csrfCookie },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: "/home" }).toString(),
  });
  const location = String(answer.headers.location ?? "");
  const sessionCookie = (answer.headers["set-cookie"] ?? []).find((c) => /authjs\.session-token=[^;]+/.test(c) && !/authjs\.session-token=;/.test(c));
  return { location, sessionCookie, tooMany: location.includes("too_many_attempts"), signedIn: Boolean(sessionCookie) };
}

const newEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

test("a forged X-Forwarded-For neither escapes the sign-in limit nor locks the address it names (no trusted proxy)", async ({ browser }) => {
  // The victim signs in from 127.0.0.3; the attacker sends from 127.0.0.2 naming other addresses, the victim's included.
  const context = await browser.newContext({ baseURL: BASE.origin });
  const victim = await signUp(await context.newPage());
  await context.close();

  // One target account: ten failures from one address for one account is where the limit refuses that pair.
  const target = newEmail("guess");
  for (let i = 0; i < 10; i++) {
    const forged = i % 2 === 0 ? "127.0.0.3" : `203.0.113.${i}, 127.0.0.3`;
    const attempt = await signInOver(BASE, target, "wrong-password-1", { localAddress: "127.0.0.2", forwardedFor: forged });
    expect(attempt.tooMany, `attempt ${i + 1}`).toBe(false);
    expect(attempt.signedIn).toBe(false);
  }
  const eleventh = await signInOver(BASE, target, "wrong-password-1", { localAddress: "127.0.0.2", forwardedFor: "198.51.100.77" });
  expect(eleventh.tooMany).toBe(true);

  const own = await signInOver(BASE, victim.email, victim.password, { localAddress: "127.0.0.3" });
  expect(own.tooMany).toBe(false);
  expect(own.signedIn).toBe(true);
});

test.describe("behind one trusted proxy, served over https", () => {
  let server: AppServer;
  let dataDir: string;
  const account = { email: newEmail("proxied"), password: "proxied-pass-1234", commerceAccount: `proxied-${Math.random().toString(36).slice(2, 8)}` };

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "po-h4-proxy-"));
    // The account is made by the operator command before the server holds the data directory.
    await promisify(execFile)(
      "npx",
      [
        "tsx",
        "--import",
        "./scripts/register-server-only.mjs",
        "scripts/admin.ts",
        "create-merchant",
        "--email",
        account.email,
        "--password",
        account.password,
        "--commerce-account",
        account.commerceAccount,
      ],
      { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" } },
    );
    const port = await findFreePort();
    server = await startAppServer(dataDir, port, { TRUST_PROXY_HOPS: "1", APP_URL: `https://127.0.0.1:${port}` });
  });

  test.afterAll(async () => {
    if (server) await killAppServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("the client is the address the proxy appended; the session cookie is __Secure- and Secure; HSTS is sent", async () => {
    const base = new URL(server.url);
    // Ten failures from client 10.0.0.5 (what the proxy appended), each with a different forged entry before it.
    const target = newEmail("guess");
    for (let i = 0; i < 10; i++) {
      const attempt = await signInOver(base, target, "wrong-password-1", { forwardedFor: `203.0.113.${i}, 10.0.0.5` });
      expect(attempt.tooMany, `attempt ${i + 1}`).toBe(false);
    }
    expect((await signInOver(base, target, "wrong-password-1", { forwardedFor: "198.51.100.1, 10.0.0.5" })).tooMany).toBe(true);
    // Another client naming 10.0.0.5 in its own part of the header is not locked out.
    const other = await signInOver(base, account.email, account.password, { forwardedFor: "10.0.0.5, 10.0.0.6" });
    expect(other.tooMany).toBe(false);
    expect(other.sessionCookie).toMatch(/^__Secure-authjs\.session-token=/);
    expect(other.sessionCookie).toMatch(/;\s*Secure/i);
    expect(other.sessionCookie).toMatch(/;\s*HttpOnly/i);

    const page = await send(base, "GET", "/sign-in");
    expect(page.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(page.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    const api = await send(base, "GET", "/api/providers");
    expect(api.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });
});
