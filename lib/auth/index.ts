import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb, type Db } from "@/lib/db/client";
import { logger } from "@/lib/logger";
import { recordAudit } from "@/lib/audit/record";
import { findUserByEmail, findUserById, type User } from "@/lib/identity/membership";
import { checkSecondFactor } from "@/lib/identity/mfa/service";
import { dummyHash, verifyPassword } from "@/lib/identity/password";
import { currentSessionVersion, endSessions } from "@/lib/identity/sessions";
import { publicBaseUrl } from "@/lib/config";
import { clientAddressFromHeaders } from "./client-address";
import { safeNextPath } from "./next-path";
import { admitSignIn, limitedCode, recordPasswordBeforeSecondFactor, recordSignInFailure, recordSignInSuccess } from "./sign-in-limit";
import { signInSchema } from "@/lib/identity/schemas";
import { authSecret } from "./secret";
import { authorizeSessionGrant } from "./session-grant";
import { EXPIRED_CHALLENGE, openChallenge, sealChallenge, secondFactorCode, WRONG_SECOND_FACTOR } from "./second-factor";

/** A sign-in refused by the limit (lib/auth/sign-in-limit.ts); its code carries the seconds to wait. */
class TooManyAttempts extends CredentialsSignin {
  constructor(retryAfterSeconds: number) {
    super();
    this.code = limitedCode(retryAfterSeconds);
  }
}

/**
 * The right password of someone with two-factor sign-in on: no session yet. Its code carries the
 * sealed challenge the second step must send back with the code (lib/auth/second-factor.ts).
 */
class SecondFactorRequired extends CredentialsSignin {
  constructor(challenge: string) {
    super();
    this.code = secondFactorCode(challenge);
  }
}

/** A refused second step: a wrong or used code, or a challenge that expired or no longer matches the account. */
class SecondFactorRefused extends CredentialsSignin {
  constructor(code: typeof WRONG_SECOND_FACTOR | typeof EXPIRED_CHALLENGE) {
    super();
    this.code = code;
  }
}

/** Session cookies are `Secure` (and named `__Secure-…`) when people reach the server over https. */
function usesSecureCookies(): boolean {
  return publicBaseUrl().startsWith("https://");
}

type SessionUser = { id: string; email: string; name: string; sessionVersion: number };

const sessionUser = (user: User): SessionUser => ({ id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion });

/** A sign-in's outcome in the person's merchant's audit log (never the password or code typed). */
function recordSignIn(db: Db, user: User, action: "auth.signed_in" | "auth.sign_in_failed" | "mfa.sign_in_failed", summary: string): Promise<void> {
  return recordAudit(db, {
    merchantId: user.merchantId,
    actor: { type: "user", id: user.id, label: `${user.name} <${user.email}>` },
    action,
    target: { type: "user", id: user.id },
    summary,
  });
}

/**
 * The second step of a sign-in (or a server-side reissue): the challenge from step one and the
 * code. Counted by the same sign-in limit as passwords: the attempt step one admitted stays
 * counted until the code passes, and each wrong code counts as a failure.
 */
async function authorizeSecondStep(raw: Record<string, unknown>, address: string): Promise<SessionUser> {
  const challenge = openChallenge(raw.challenge);
  if (!challenge) throw new SecondFactorRefused(EXPIRED_CHALLENGE);
  const db = await getDb();
  const user = await findUserById(db, challenge.userId);
  if (!user || user.sessionVersion !== challenge.sessionVersion) throw new SecondFactorRefused(EXPIRED_CHALLENGE);
  if (challenge.purpose === "reissue") return sessionUser(user);
  const attempt = { email: user.email.toLowerCase(), address };
  const admission = await admitSignIn(attempt);
  if (!admission.admitted) throw new TooManyAttempts(admission.retryAfterSeconds);
  const code = typeof raw.code === "string" ? raw.code.trim().slice(0, 64) : "";
  if (!code || !(await checkSecondFactor(db, user.id, code))) {
    await recordSignInFailure(attempt, admission);
    await recordSignIn(db, user, "mfa.sign_in_failed", `from ${address}`);
    throw new SecondFactorRefused(WRONG_SECOND_FACTOR);
  }
  await recordSignInSuccess(attempt, admission);
  await recordSignIn(db, user, "auth.signed_in", `with password and two-factor code, from ${address}`);
  return sessionUser(user);
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: authSecret(),
  trustHost: true,
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  // From APP_URL, not from the request: a forged X-Forwarded-Proto must not choose the cookie's flags.
  useSecureCookies: usesSecureCookies(),
  pages: { signIn: "/sign-in" },
  // A wrong password is an expected outcome, not a server error worth a stack trace.
  logger: {
    error(error) {
      if (error instanceof CredentialsSignin || error.name === "CredentialsSignin") return;
      logger.error("auth error", { error });
    },
    warn(code) {
      logger.warn("auth warning", { code });
    },
  },
  providers: [
    Credentials({
      credentials: { email: { type: "email" }, password: { type: "password" } },
      async authorize(raw, request) {
        // The address server.ts settled on from the socket and TRUST_PROXY_HOPS (lib/auth/client-address.ts).
        const address = clientAddressFromHeaders(request?.headers);
        if (raw && typeof raw === "object" && "challenge" in raw) return authorizeSecondStep(raw as Record<string, unknown>, address);
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        const attempt = { email, address };
        const admission = await admitSignIn(attempt);
        if (!admission.admitted) throw new TooManyAttempts(admission.retryAfterSeconds);
        const db = await getDb();
        const user = await findUserByEmail(db, email);
        const valid = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
        if (!user || !valid) {
          await recordSignInFailure(attempt, admission);
          // A known e-mail's failure goes to its merchant's log; an unknown one belongs to no merchant.
          if (user) await recordSignIn(db, user, "auth.sign_in_failed", `from ${address}`);
          return null;
        }
        // Two-factor on: the password was right, but no session until the code. The attempt stays
        // counted (a guesser holding the password gets no fresh allowance of codes by re-entering it).
        if (user.totpEnabledAt) {
          await recordPasswordBeforeSecondFactor(admission);
          throw new SecondFactorRequired(sealChallenge({ userId: user.id, sessionVersion: user.sessionVersion, purpose: "second_factor" }));
        }
        await recordSignInSuccess(attempt, admission);
        await recordSignIn(db, user, "auth.signed_in", `with password, from ${address}`);
        return sessionUser(user);
      },
    }),
    // A session after an invitation or a sign-up link was used up in the same request (lib/auth/session-grant.ts).
    Credentials({
      id: "session-grant",
      name: "Session grant",
      credentials: { grant: { type: "text" } },
      authorize: async (raw) => (await authorizeSessionGrant(raw)) satisfies SessionUser | null,
    }),
  ],
  events: {
    // Every way out (the dashboard's Sign out, next-auth's own sign-out route) ends the session on the server too.
    async signOut(message) {
      const userId = "token" in message ? message.token?.sub : undefined;
      if (userId) await endSessions(await getDb(), userId);
    },
  },
  callbacks: {
    // Wherever next-auth is asked to send someone after signing in or out: a path of this site only.
    redirect({ url, baseUrl }) {
      const path = url === baseUrl || url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) || "/" : url;
      return `${baseUrl}${safeNextPath(path)}`;
    },
    /**
     * Runs on every read of a session (`auth()`, `/api/auth/session`). A cookie issued under an older
     * session version (signed out, password changed or reset) or for a removed member is refused:
     * returning null clears it. Cookies from before versions existed count as version 0.
     */
    async jwt({ token, user }) {
      if (user?.id) {
        token.sub = user.id;
        token.sv = (user as Partial<SessionUser>).sessionVersion ?? 0;
        return token;
      }
      if (!token.sub) return null;
      const issued = typeof token.sv === "number" ? token.sv : 0;
      const current = await currentSessionVersion(await getDb(), token.sub);
      return current === issued ? token : null;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
}));
