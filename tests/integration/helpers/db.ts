import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder, openPostgres, type Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";

export type TestDb = { db: Db; close: () => Promise<void>; kind: "pglite" | "postgres" };

/**
 * A throwaway database: in-memory PGlite by default, the PostgreSQL at DATABASE_URL when set
 * (CI creates a fresh database per run; tests use unique names so files can share it).
 */
export async function createTestDb(): Promise<TestDb> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const handle = await openPostgres(url, { max: 4 });
    return { ...handle, kind: "postgres" };
  }
  const client = await PGlite.create();
  await migrate(drizzle(client), { migrationsFolder });
  return { db: drizzle(client, { schema }) as unknown as Db, close: () => client.close(), kind: "pglite" };
}

export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}
