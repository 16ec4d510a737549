import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/logger";
import { findUserByEmail } from "@/lib/identity/membership";
import { DUMMY_HASH, verifyPassword } from "@/lib/identity/password";
import { createSharedRateLimiter, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS } from "./rate-limit";
import { signInSchema } from "@/lib/identity/schemas";
import { authSecret } from "./secret";

// Shared by every instance on one PostgreSQL: a second server grants no second allowance.
const byAccount = createSharedRateLimiter("sign-in:account", SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS);
const byAddress = createSharedRateLimiter("sign-in:address", SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS);

export class TooManyAttempts extends CredentialsSignin {
  override code = "too_many_attempts";
}

function clientAddress(request: Request | undefined): string {
  // Client-supplied unless a proxy overwrites it: it spreads the limit over addresses, and is capped in length.
  const forwarded = request?.headers.get("x-forwarded-for")?.split(",")[0]?.trim().slice(0, 64);
  return forwarded || request?.headers.get("x-real-ip") || "local";
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: authSecret(),
  trustHost: true,
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
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
        const address = clientAddress(request);
        if ((await byAccount.check(email)) > 0 || (await byAddress.check(address)) > 0) throw new TooManyAttempts();
        const db = await getDb();
        const user = await findUserByEmail(db, email);
        const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
        if (!user || !valid) {
          await Promise.all([byAccount.fail(email), byAddress.fail(address)]);
          return null;
        }
        await byAccount.reset(email);
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
}));
