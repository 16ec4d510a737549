// Runs before every reliability test file (vitest.config.ts, project "reliability").
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// These suites are about several processes sharing one PostgreSQL: without it there is nothing to
// test, and a skipped suite would read as a passed one. CI runs them on a throwaway database.
if (!process.env.DATABASE_URL) {
  throw new Error(
    "npm run test:reliability needs PostgreSQL: set DATABASE_URL=postgres://…/<throwaway database> (the suites create merchants and start app servers on it).",
  );
}
if (!fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
  throw new Error("npm run test:reliability starts the production server: run `npx next build` first.");
}

// The servers the suites start and the suites themselves (which seed merchants and connections)
// must use the same vault key and session secret.
process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");
process.env.AUTH_SECRET ??= `reliability-${randomBytes(16).toString("hex")}`;
process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
process.env.LOG_LEVEL ??= "warn";
// bcrypt's lowest cost for the suites and the servers they start (lib/identity/password.ts).
process.env.PASSWORD_HASH_COST ??= "4";
