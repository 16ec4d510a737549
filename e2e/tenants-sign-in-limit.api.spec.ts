import http from "node:http";
import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";

/**
 * Issue 13, "Tenants and roles", the sign-in limit over HTTP (REFERENCE "Limits": 10 failures per
 * 15 minutes per account and per address): next-auth's credentials endpoint answers the 11th with
 * 429 and Retry-After. Each test sends from its own loopback address (127.0.0.x, which Linux
 * routes to the server on 127.0.0.1), so the address it locks is no other spec's.
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

const signedIn = (answer: Answer) => (answer.headers["set-cookie"] ?? []).some((c) => /authjs\.session-token=[^;]+/.test(c) && !/authjs\.session-token=;/.test(c));
const guess = () => `guess-${crypto.randomUUID()}@example.com`;

function expectLimited(answer: Answer) {
  expect(answer.status).toBe(429);
  expect(answer.headers["retry-after"]).toBe("900");
  expect(JSON.parse(answer.body).errors).toEqual([expect.objectContaining({ status: "429", code: "too_many_attempts" })]);
  expect(signedIn(answer)).toBe(false);
}

test("ten failed sign-ins from one address, then 429 with Retry-After for any account from it; other addresses sign in", async ({ browser }) => {
  const context = await browser.newContext();
  const account = await signUp(await context.newPage());
  await context.close();

  for (let i = 0; i < 10; i++) {
    const answer = await signInOver("127.0.0.21", guess(), "wrong-password-1");
    expect(answer.status, `attempt ${i + 1}`).toBe(302);
    expect(String(answer.headers.location)).toContain("code=credentials");
  }
  expectLimited(await signInOver("127.0.0.21", guess(), "wrong-password-1"));
  // The right password does not get through from the locked address either.
  expectLimited(await signInOver("127.0.0.21", account.email, account.password));
  // From another address the same person signs in.
  const elsewhere = await signInOver("127.0.0.22", account.email, account.password);
  expect(elsewhere.status).toBe(302);
  expect(signedIn(elsewhere)).toBe(true);
});

test("ten failed sign-ins to one account from many addresses, then 429 for that account only", async ({ browser }) => {
  // One browser context per sign-up: a signed-in context is sent from /sign-up to Home.
  const newMember = async () => {
    const context = await browser.newContext();
    const account = await signUp(await context.newPage());
    await context.close();
    return account;
  };
  const [target, other] = await Promise.all([newMember(), newMember()]);

  for (let i = 0; i < 10; i++) {
    const answer = await signInOver(`127.0.1.${30 + i}`, target.email, "wrong-password-1");
    expect(answer.status, `attempt ${i + 1}`).toBe(302);
  }
  expectLimited(await signInOver("127.0.1.50", target.email, target.password));
  const unaffected = await signInOver("127.0.1.51", other.email, other.password);
  expect(signedIn(unaffected)).toBe(true);
});
