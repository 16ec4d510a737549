import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/logger";
import { findUserByEmail } from "@/lib/identity/membership";
import { dummyHash, verifyPassword } from "@/lib/identity/password";
import { currentSessionVersion, endSessions } from "@/lib/identity/sessions";
import { publicBaseUrl } from "@/lib/config";
import { clientAddressFromHeaders } from "./client-address";
import { safeNextPath } from "./next-path";
import { admitSignIn, limitedCode, recordSignInFailure, recordSignInSuccess } from "./sign-in-limit";
import { signInSchema } from "@/lib/identity/schemas";
import { authSecret } from "./secret";
import { authorizeSessionGrant } from "./session-grant";

/** A sign-in refused by the limit (lib/auth/sign-in-limit.ts); its code carries the seconds to wait. */
export class TooManyAttempts extends CredentialsSignin {
  constructor(retryAfterSeconds: number) {
    super();
    this.code = limitedCode(retryAfterSeconds);
  }
}

/** Session cookies are `Secure` (and named `__Secure-…`) when people reach the server over https. */
export function usesSecureCookies(): boolean {
  return publicBaseUrl().startsWith("https://");
}

type SessionUser = { id: string; email: string; name: string; sessionVersion: number };

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
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        // The address server.ts settled on from the socket and TRUST_PROXY_HOPS (lib/auth/client-address.ts).
        const attempt = { email, address: clientAddressFromHeaders(request?.headers) };
        const admission = await admitSignIn(attempt);
        if (!admission.admitted) throw new TooManyAttempts(admission.retryAfterSeconds);
        const db = await getDb();
        const user = await findUserByEmail(db, email);
        const valid = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
        if (!user || !valid) {
          await recordSignInFailure(attempt, admission);
          return null;
        }
        await recordSignInSuccess(attempt);
        return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion } satisfies SessionUser;
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
