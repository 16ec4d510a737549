import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { databaseUrl, dataDir } from "@/lib/config";
import { lockDataDir } from "./lock";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export const migrationsFolder = path.join(process.cwd(), "lib/db/migrations");

type Handle = { db: Db; close: () => Promise<void> };

const globalForDb = globalThis as unknown as { __dbHandle?: Promise<Handle> };

/** Opens PGlite in `dir` behind the directory lock and applies migrations. */
export async function openEmbedded(dir: string): Promise<Handle> {
  const release = lockDataDir(dir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = await PGlite.create(path.join(dir, "pglite"));
    const db = drizzle(client, { schema }) as unknown as Db;
    await migrate(drizzle(client), { migrationsFolder });
    return {
      db,
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Opens PostgreSQL; migrations run under an advisory lock so concurrent starters do not collide. */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const migrator = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrator`select pg_advisory_lock(727271)`;
    await migrate(drizzle(migrator), { migrationsFolder });
    await migrator`select pg_advisory_unlock(727271)`;
  } finally {
    await migrator.end();
  }
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {} });
  return { db: drizzle(client, { schema }) as unknown as Db, close: () => client.end() };
}

/** The process-wide database: one PGlite instance (or one pool) per process. */
export function getDb(): Promise<Db> {
  globalForDb.__dbHandle ??= (async () => {
    const url = databaseUrl();
    return url ? openPostgres(url) : openEmbedded(dataDir());
  })();
  globalForDb.__dbHandle.catch(() => {
    globalForDb.__dbHandle = undefined;
  });
  return globalForDb.__dbHandle.then((h) => h.db);
}

export async function closeDb(): Promise<void> {
  const handle = globalForDb.__dbHandle;
  globalForDb.__dbHandle = undefined;
  if (handle) await (await handle).close();
}
