// Runs before every integration test file (vitest.config.ts, setupFiles), ahead of the file's imports.
import { randomBytes } from "node:crypto";
import { afterAll, inject, vi } from "vitest";
import { workerDatabaseUrl } from "./helpers/worker-database";

// The app's vault key and session secret come from the environment, never from files on disk.
const previous = { CREDENTIALS_KEY: process.env.CREDENTIALS_KEY, AUTH_SECRET: process.env.AUTH_SECRET };
process.env.CREDENTIALS_KEY = randomBytes(32).toString("base64");
process.env.AUTH_SECRET = "integration-tests-only-secret";
// bcrypt's lowest cost: these tests are about what is done with passwords, not about bcrypt (lib/identity/password.ts).
process.env.PASSWORD_HASH_COST ??= "4";
// Each test file's job queue lives in its own schema: on the shared PostgreSQL of CI's second pass,
// one file must never run another file's jobs.
process.env.JOBS_SCHEMA = `pgboss_${randomBytes(6).toString("hex")}`;
// On PostgreSQL each worker has a database of its own (tests/integration/global-setup.ts): the files
// of one worker share it, the other worker's files never touch it. Child processes a test starts
// (the admin CLI, `npm run worker`) inherit it.
const postgresBase = inject("postgresBaseUrl");
if (postgresBase) process.env.DATABASE_URL = workerDatabaseUrl(postgresBase, process.env.VITEST_POOL_ID ?? "1");
// The files of a worker share its database's rate-limit counters too: each file counts afresh, as it
// did when every limit lived in process memory (one file's thousand sign-ups must not spend the next
// file's allowance).
// Imported here, after the environment above is set.
(await import("@/lib/rate-limit/store")).newSharedGeneration();

afterAll(() => {
  for (const [name, value] of Object.entries(previous)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

// Route handlers and actions call getDb(); here it answers with the file's own throwaway database.
vi.mock("@/lib/db/client", async (importOriginal) => {
  const { appDb } = await import("./helpers/app-db");
  return { ...(await importOriginal<typeof import("@/lib/db/client")>()), getDb: async () => appDb() };
});
