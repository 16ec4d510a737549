import http from "node:http";
import { expect, test, type Browser } from "@playwright/test";
import { signUp } from "./support/accounts";

/**
 * The sign-in limit over HTTP (lib/auth/sign-in-limit.ts): next-auth's credentials endpoint answers
 * 429 with Retry-After to an address past SIGN_IN_MAX_FAILURES failures for one account (10), to an
 * address past SIGN_IN_MAX_FAILURES_PER_ADDRESS failures over all accounts (50), and, once an
 * account has 10 failures from anywhere, to an address that failed for it until its wait is over;
 * an address without failures for the account is never refused, so nobody can lock the owner out.
 * Each test sends from its own loopback addresses (127.0.0.x, which Linux routes to the server on
 * 127.0.0.1), so the addresses it limits are no other spec's.
 */
const BASE = new URL(process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 3107}`);

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function send(method: string, path: string, options: { localAddress: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: BASE.hostname, port: BASE.port, method, path, localAddress: options.localAddress, headers: options.headers },
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

async function signInOver(localAddress: string, email: string, password: string): Promise<Answer> {
  const csrf = await send("GET", "/api/auth/csrf", { localAddress });
  const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  return send("POST", "/api/auth/callback/credentials", {
    localAddress,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: "/home" }).toString(),
  });
}

const signedIn = (answer: Answer) =>
  (answer.headers["set-cookie"] ?? []).some((c) => /authjs\.session-token=[^;]+/.test(c) && !/authjs\.session-token=;/.test(c));
const guess = () => `guess-${crypto.randomUUID()}@example.com`;

const MAX_FAILURES = 10;
const MAX_FAILURES_PER_ADDRESS = 50;
const WINDOW_SECONDS = 15 * 60;

function expectLimited(answer: Answer, longestWait: number) {
  expect(answer.status).toBe(429);
  const wait = Number(answer.headers["retry-after"]);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(longestWait);
  expect(JSON.parse(answer.body).errors).toEqual([expect.objectContaining({ status: "429", code: "too_many_attempts" })]);
  expect(signedIn(answer)).toBe(false);
}

function expectChecked(answer: Answer, what: string) {
  expect(answer.status, what).toBe(302);
  expect(String(answer.headers.location), what).toContain("code=credentials");
}

async function newMember(browser: Browser) {
  // One browser context per sign-up: a signed-in context is sent from /sign-up to Home.
  const context = await browser.newContext();
  const account = await signUp(await context.newPage());
  await context.close();
  return account;
}

test("ten failed sign-ins for one account from one address, then 429 for that account from it, even with the right password; the owner signs in elsewhere", async ({
  browser,
}) => {
  const account = await newMember(browser);
  for (let i = 0; i < MAX_FAILURES; i++) expectChecked(await signInOver("127.0.0.21", account.email, "wrong-password-1"), `attempt ${i + 1}`);
  expectLimited(await signInOver("127.0.0.21", account.email, account.password), WINDOW_SECONDS);
  const elsewhere = await signInOver("127.0.0.22", account.email, account.password);
  expect(elsewhere.status).toBe(302);
  expect(signedIn(elsewhere)).toBe(true);
});

test("ten failed sign-ins to one account from many addresses do not lock its owner out; the failing addresses must wait", async ({ browser }) => {
  const [target, other] = await Promise.all([newMember(browser), newMember(browser)]);
  for (let i = 0; i < MAX_FAILURES; i++) expectChecked(await signInOver(`127.0.1.${30 + i}`, target.email, "wrong-password-1"), `attempt ${i + 1}`);
  // Another fresh address is still answered, not refused: the account is slowed, not locked.
  expectChecked(await signInOver("127.0.1.45", target.email, "wrong-password-1"), "a fresh address");
  // An address that failed once for the account now waits 30 seconds before it may try again.
  expectLimited(await signInOver(`127.0.1.${30 + MAX_FAILURES - 1}`, target.email, target.password), 30);
  // The owner, from an address without failures, signs in at once.
  const owner = await signInOver("127.0.1.50", target.email, target.password);
  expect(owner.status).toBe(302);
  expect(signedIn(owner)).toBe(true);
  expect(signedIn(await signInOver("127.0.1.51", other.email, other.password))).toBe(true);
});

test("an address trying many accounts is refused after fifty failures, for every account; other addresses sign in", async ({ browser }) => {
  // Fifty password checks (bcrypt) one after another.
  test.setTimeout(120_000);
  const account = await newMember(browser);
  for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) expectChecked(await signInOver("127.0.0.23", guess(), "wrong-password-1"), `attempt ${i + 1}`);
  expectLimited(await signInOver("127.0.0.23", guess(), "wrong-password-1"), WINDOW_SECONDS);
  expectLimited(await signInOver("127.0.0.23", account.email, account.password), WINDOW_SECONDS);
  expect(signedIn(await signInOver("127.0.0.24", account.email, account.password))).toBe(true);
});
