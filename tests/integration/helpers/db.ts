import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, inject } from "vitest";
import { migrationsFolder, openPostgres, type Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { stopJobs } from "@/lib/jobs/queue";
import { flushRequestLog } from "@/lib/request-log/writer";
import { setAppDb } from "./app-db";

export type TestDb = { db: Db; close: () => Promise<void>; kind: "pglite" | "postgres" };

/**
 * A throwaway database: in-memory PGlite by default, the PostgreSQL at DATABASE_URL when set
 * (CI creates a fresh database per run, and each worker gets a database of its own: global-setup.ts; tests use
 * unique names so the files of one worker can share it). The PGlite
 * starts as a copy of the migrated template tests/integration/global-setup.ts made once for the run
 * (a few times faster than initdb and every migration per file); without one it migrates itself.
 */
async function createTestDb(): Promise<TestDb> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const handle = await openPostgres(url, { max: 4 });
    return { ...handle, kind: "postgres" };
  }
  const template = inject("pgliteTemplate");
  const client = template ? await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(template)]) }) : await PGlite.create();
  if (!template) await migrate(drizzle(client), { migrationsFolder });
  return { db: drizzle(client, { schema }) as unknown as Db, close: () => client.close(), kind: "pglite" };
}

/**
 * The test file's throwaway database, opened before its tests and closed after them. The app's own
 * getDb() answers with it too (tests/integration/setup.ts), so route handlers and actions use it.
 */
export function setUpTestDb(): Pick<TestDb, "db" | "kind"> {
  let open: TestDb | undefined;
  beforeAll(async () => {
    open = await createTestDb();
    setAppDb(open.db);
  });
  afterAll(async () => {
    // The requests of the file's last second go to the file's database, not the next file's.
    await flushRequestLog();
    setAppDb(undefined);
    if (open) await stopJobs(open.db);
    await open?.close();
  });
  const current = (): TestDb => {
    if (!open) throw new Error("the test database opens in beforeAll: use it inside hooks and tests");
    return open;
  };
  return {
    get db() {
      return current().db;
    },
    get kind() {
      return current().kind;
    },
  };
}

export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}
