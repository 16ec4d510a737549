import path from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { databaseUrl, dataDir } from "@/lib/config";
import { lockDataDir } from "./lock";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export const migrationsFolder = path.join(process.cwd(), "lib/db/migrations");

export type Handle = { db: Db; close: () => Promise<void> };

const postgresDbs = new WeakSet<object>();
/** Connections of an app process's postgres.js pool (the metrics report it as db_pool_max_connections). */
export const POSTGRES_POOL_SIZE = 10;
/** Pool connections (of 10) that invoice creates may hold at once; the others stay free for reads. */
const POSTGRES_WRITE_LANES = 4;

/**
 * How many writes of one kind may usefully be in flight at once on `db`: one on the embedded PGlite
 * (a single in-process connection that runs one statement at a time), a few on a PostgreSQL pool.
 * Group commit (lib/invoices/create/group-commit.ts) batches whatever arrives while they run.
 * A transaction handle is one connection: one.
 */
export function writeLanes(db: Db): number {
  return postgresDbs.has(db) ? POSTGRES_WRITE_LANES : 1;
}

/** What the embedded driver offers beyond drizzle: a statement with a blob as COPY's input. */
export type EmbeddedClient = { query: (text: string, params: unknown[], options: { blob: Blob }) => Promise<unknown> };

/**
 * The PGlite behind an embedded `db` (drizzle keeps its client as `$client`; only PGlite has
 * `execProtocol`), for COPY from a blob; undefined on PostgreSQL and for a transaction's handle.
 */
export function embeddedClientOf(db: Db): EmbeddedClient | undefined {
  const client = (db as { $client?: { execProtocol?: unknown } }).$client;
  return typeof client?.execProtocol === "function" ? (client as unknown as EmbeddedClient) : undefined;
}

const globalForDb = globalThis as unknown as { __dbHandle?: Promise<Handle> };

/**
 * `MIGRATE_ON_START`: `on` (the default, so the embedded database just works) applies pending
 * migrations when a process opens the database; `off` leaves that to the release step
 * (`npm run migrate`, scripts/migrate.ts) and only checks that none is pending, stopping the
 * process with a clear message when the database is behind this release.
 */
export function migrateOnStart(): boolean {
  const raw = process.env.MIGRATE_ON_START?.trim().toLowerCase();
  if (!raw || raw === "on") return true;
  if (raw === "off") return false;
  throw new Error(`MIGRATE_ON_START must be "on" or "off", got "${process.env.MIGRATE_ON_START}"`);
}

type OpenOptions = { max?: number; migrate?: boolean };

/** The rows of `db.execute`: PGlite answers `{ rows }`, postgres.js the rows themselves. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];
}

/** How many of this release's migrations the database has not applied (drizzle's own rule: newer than the last applied). */
async function pendingMigrations(db: Db): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder });
  let last = -1;
  try {
    const result = await db.execute(sql`select max(created_at) as last from drizzle.__drizzle_migrations`);
    const value = rowsOf(result)[0]?.last;
    last = value === null || value === undefined ? -1 : Number(value);
  } catch {
    return migrations.length; // never migrated: no drizzle schema yet
  }
  return migrations.filter((migration) => migration.folderMillis > last).length;
}

async function assertMigrated(db: Db): Promise<void> {
  const pending = await pendingMigrations(db);
  if (pending > 0) {
    throw new Error(`the database lacks ${pending} migration(s) of this release and MIGRATE_ON_START=off: run \`npm run migrate\` first (the release step)`);
  }
}

/** Opens PGlite in `dir` behind the directory lock and applies migrations (unless `migrate: false`). */
export async function openEmbedded(dir: string, options: OpenOptions = {}): Promise<Handle> {
  const release = lockDataDir(dir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = await PGlite.create(path.join(dir, "pglite"));
    const db = drizzle(client, { schema }) as unknown as Db;
    try {
      if (options.migrate ?? true) await migrate(drizzle(client), { migrationsFolder });
      else await assertMigrated(db);
    } catch (error) {
      await client.close();
      throw error;
    }
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

/**
 * The advisory lock every migrating process takes on PostgreSQL. Drizzle's migrator takes none: two
 * instances starting together would both read the same last migration and both apply the next ones
 * (and race on `create schema if not exists`), so one of them fails (tests/integration/migrate.test.ts).
 */
const MIGRATION_LOCK_ID = 727271;

/** Applies pending migrations to the PostgreSQL at `url` under the advisory lock; returns how many ran. */
export async function migratePostgres(url: string): Promise<number> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  // One connection: the session that holds the lock is the one that migrates (the lock ends with it).
  const migrator = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    const db = drizzle(migrator) as unknown as Db;
    const pending = await pendingMigrations(db);
    if (pending > 0) await migrate(drizzle(migrator), { migrationsFolder });
    await migrator`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
    return pending;
  } finally {
    await migrator.end();
  }
}

/** Applies pending migrations to the embedded database in `dir` (taking its lock: no server may hold it); returns how many ran. */
export async function migrateEmbedded(dir: string): Promise<number> {
  const release = lockDataDir(dir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = await PGlite.create(path.join(dir, "pglite"));
    try {
      const pending = await pendingMigrations(drizzle(client) as unknown as Db);
      if (pending > 0) await migrate(drizzle(client), { migrationsFolder });
      return pending;
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}

/** Opens PostgreSQL; migrations run under an advisory lock so concurrent starters do not collide (unless `migrate: false`). */
export async function openPostgres(url: string, options: OpenOptions = {}): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  if (options.migrate ?? true) await migratePostgres(url);
  const client = postgres(url, { max: options.max ?? POSTGRES_POOL_SIZE, onnotice: () => {} });
  const db = drizzle(client, { schema }) as unknown as Db;
  postgresDbs.add(db);
  if (!(options.migrate ?? true)) {
    try {
      await assertMigrated(db);
    } catch (error) {
      await client.end();
      throw error;
    }
  }
  return { db, close: () => client.end() };
}

/** The process-wide database: one PGlite instance (or one pool) per process. */
export function getDb(): Promise<Db> {
  globalForDb.__dbHandle ??= (async () => {
    const url = databaseUrl();
    const migrate = migrateOnStart();
    return url ? openPostgres(url, { migrate }) : openEmbedded(dataDir(), { migrate });
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
