import { NextRequest } from "next/server";
import { GET, POST } from "@/app/api/auth/[...nextauth]/route";

/**
 * next-auth's own routes (app/api/auth/[...nextauth]/route.ts) called in-process, as the sign-in
 * form's fallback and any HTTP client post them: the real authorize callback, sign-in limit and
 * session check. `address` stands for the one server.ts settles on (X-Forwarded-For after
 * normalizeForwardedHeaders, tests/integration/auth-client-address.test.ts).
 */
const BASE = "http://localhost:3000";

export type SignInAnswer = {
  status: number;
  /** "signed-in", next-auth's error code ("credentials"), or "too_many_attempts" (429). */
  outcome: string;
  /** The session cookie (name=value) when signed in. */
  cookie?: string;
  retryAfter?: number;
  body: string;
};

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((c) => c.split(";")[0]!);
}

export function signInOverHttp(email: string, password: string, address: string): Promise<SignInAnswer> {
  return postCredentials({ email, password }, address);
}

/** Any fields to next-auth's credentials callback (the second step posts `challenge` and `code`). */
export async function postCredentials(fields: Record<string, string>, address: string): Promise<SignInAnswer> {
  const csrf = await GET(new NextRequest(`${BASE}/api/auth/csrf`, { headers: { "x-forwarded-for": address } }));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const answer = await POST(
    new NextRequest(`${BASE}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie: cookiesOf(csrf).join("; "), "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
      body: new URLSearchParams({ csrfToken, ...fields, callbackUrl: `${BASE}/home` }).toString(),
    }),
  );
  const body = await answer.text();
  const cookie = cookiesOf(answer).find((c) => /^authjs\.session-token=./.test(c));
  const retryAfter = answer.headers.get("retry-after");
  if (answer.status === 429) {
    const code = (JSON.parse(body) as { errors: { code: string }[] }).errors[0]?.code ?? "";
    return { status: 429, outcome: code, retryAfter: retryAfter ? Number(retryAfter) : undefined, body };
  }
  const location = answer.headers.get("location") ?? "";
  const error = new URL(location, BASE).searchParams;
  const outcome = cookie ? "signed-in" : (error.get("code") ?? error.get("error") ?? `unexpected ${answer.status}`);
  return { status: answer.status, outcome, cookie, body };
}

/** Whose session a cookie holds now (GET /api/auth/session runs the session-version check), or null. */
export async function sessionEmail(cookie: string): Promise<string | null> {
  const answer = await GET(new NextRequest(`${BASE}/api/auth/session`, { headers: { cookie } }));
  const session = (await answer.json()) as { user?: { email?: string } } | null;
  return session?.user?.email ?? null;
}
