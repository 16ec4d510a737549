import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";

/**
 * Every page carries a nonce-based Content-Security-Policy that Next applies to
 * its own scripts, no page can be framed, no MIME sniffing, no full URL in the Referer to other
 * sites. In a real browser no page reports a CSP violation and the forms still work.
 */

type Violation = { directive: string; blocked: string; source: string };

/** Collects CSP violations from the page's own event and from the console, for every page the context opens. */
async function watchViolations(page: Page): Promise<{ list: () => Promise<Violation[]>; console: string[] }> {
  const consoleLines: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleLines.push(message.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: Violation[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      w.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile });
    });
  });
  return {
    list: () => page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp),
    console: consoleLines,
  };
}

function expectSecurityHeaders(response: APIResponse | null, where: string) {
  expect(response, where).not.toBeNull();
  const headers = response!.headers();
  const policy = headers["content-security-policy"] ?? "";
  expect(policy, where).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(policy, where).toContain("frame-ancestors 'none'");
  expect(policy, where).toContain("object-src 'none'");
  expect(policy, where).toContain("base-uri 'none'");
  expect(policy, where).toContain("form-action 'self'");
  expect(policy, where).not.toContain("'unsafe-eval'");
  expect(headers["x-content-type-options"], where).toBe("nosniff");
  expect(headers["referrer-policy"], where).toBe("strict-origin-when-cross-origin");
  // APP_URL is http here: no HSTS over plain http.
  expect(headers["strict-transport-security"], where).toBeUndefined();
  return policy.match(/'nonce-([^']+)'/)![1]!;
}

async function visit(page: Page, path: string): Promise<string> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await page.waitForLoadState("networkidle");
  return expectSecurityHeaders(response as unknown as APIResponse, path);
}

test("every page has a fresh nonce CSP that Next's scripts carry; no violation is reported and forms work", async ({ page }) => {
  const violations = await watchViolations(page);

  const nonces = new Set<string>();
  for (const path of ["/sign-in", "/sign-up", "/forgot-password"]) nonces.add(await visit(page, path));

  // The nonce is new on every response, and every script in the HTML carries this response's nonce.
  const first = await page.request.get("/sign-in");
  const second = await page.request.get("/sign-in");
  const nonce = expectSecurityHeaders(first, "/sign-in (request)");
  expect(expectSecurityHeaders(second, "/sign-in (again)")).not.toBe(nonce);
  const html = await first.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);

  // Forms still work under the policy: sign up (a server action and a redirect), create an API key.
  await signUp(page);
  for (const path of [
    "/home",
    "/providers",
    "/providers/provider-b",
    "/connections",
    "/invoices",
    "/invoices/new",
    "/routing",
    "/api-keys",
    "/team",
    "/settings",
    "/webhooks",
    "/docs/webhooks",
  ]) {
    nonces.add(await visit(page, path));
  }
  const key = await createApiKey(page, "csp");
  expect(key).toMatch(/^pok_/);

  expect(nonces.size).toBeGreaterThan(10);
  expect(await violations.list()).toEqual([]);
  expect(violations.console).toEqual([]);
});

test("the hosted payment page and the dashboard refuse to be framed; API answers are not sniffed", async ({ page }) => {
  const response = await page.request.get("/sign-in");
  expect(response.headers()["x-frame-options"] ?? "DENY").toBe("DENY");
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  // A page that tries to frame the sign-in page shows nothing inside the frame.
  await page.goto("/sign-in");
  const framed = await page.evaluate(async () => {
    const frame = document.createElement("iframe");
    frame.src = "/sign-in";
    const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
    document.body.append(frame);
    await loaded;
    try {
      return frame.contentDocument?.querySelector("h1")?.textContent ?? null;
    } catch {
      return null;
    }
  });
  expect(framed).toBeNull();

  const api = await page.request.get("/api/providers");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(api.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  const pay = await page.request.get("/pay/inv_does_not_exist");
  expect(pay.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(pay.headers()["content-security-policy"]).toContain("form-action 'self'");
  expect(pay.headers()["content-security-policy"]).toContain("base-uri 'none'");
});

/** OWASP REST Security Cheat Sheet, for JSON APIs: on every answer under /api, whoever serves it. */
const API_HEADERS = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

test("every answer under /api carries the API's security headers: the lean path, Next's routes and Next's own answers", async ({ request }) => {
  const answers: [string, APIResponse][] = [
    ["GET /api/commerce/payment-invoices (401, lean path)", await request.get("/api/commerce/payment-invoices")],
    ["PUT /api/commerce/payment-invoices (405, lean path)", await request.put("/api/commerce/payment-invoices")],
    ["GET /api/commerce/openapi.json", await request.get("/api/commerce/openapi.json")],
    ["GET /api/connections (401)", await request.get("/api/connections")],
    ["GET /api/providers", await request.get("/api/providers")],
    ["GET /api/nothing (404)", await request.get("/api/nothing")],
    ["GET /api/health", await request.get("/api/health")],
    ["GET /api/dashboard/invoices (401)", await request.get("/api/dashboard/invoices")],
    ["GET /api/auth/csrf (next-auth)", await request.get("/api/auth/csrf")],
    ["PUT /api/auth/session (Next's own 405)", await request.put("/api/auth/session")],
    ["GET /api/commerce/payment-invoices/%E0%A4%A (malformed_path)", await request.get("/api/commerce/payment-invoices/%E0%A4%A")],
  ];
  for (const [where, answer] of answers) {
    for (const [name, value] of Object.entries(API_HEADERS)) expect(answer.headers()[name], `${where}: ${name}`).toBe(value);
  }
});
