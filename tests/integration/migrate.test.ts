import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { readMigrationFiles } from "drizzle-orm/migrator";
import postgres from "postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { migrateEmbedded, migrateOnStart, migratePostgres, migrationsFolder, openEmbedded, openPostgres } from "@/lib/db/client";
import { DataDirLockedError } from "@/lib/db/lock";

/**
 * `npm run migrate` applies pending migrations and
 * exits; instances started with MIGRATE_ON_START=off only check that none is pending. On PostgreSQL,
 * where instances of a release start together, migrating is serialised by an advisory lock
 * (drizzle's migrator takes none). Each pass tests the database it runs on: PGlite by default, and
 * a fresh PostgreSQL database of its own when DATABASE_URL is set.
 */
const MIGRATIONS = readMigrationFiles({ migrationsFolder }).length;
const execFileAsync = promisify(execFile);
const onPostgres = Boolean(process.env.DATABASE_URL);

const previousMigrate = process.env.MIGRATE_ON_START;
afterEach(() => {
  if (previousMigrate === undefined) delete process.env.MIGRATE_ON_START;
  else process.env.MIGRATE_ON_START = previousMigrate;
});

describe("MIGRATE_ON_START", () => {
  it("is on by default, takes on or off, and refuses anything else naming the variable", () => {
    delete process.env.MIGRATE_ON_START;
    expect(migrateOnStart()).toBe(true);
    process.env.MIGRATE_ON_START = "off";
    expect(migrateOnStart()).toBe(false);
    process.env.MIGRATE_ON_START = " ON ";
    expect(migrateOnStart()).toBe(true);
    process.env.MIGRATE_ON_START = "no";
    expect(() => migrateOnStart()).toThrow('MIGRATE_ON_START must be "on" or "off", got "no"');
  });
});

if (!onPostgres) {
  describe("on the embedded database", () => {
    const dirs: string[] = [];
    const freshDir = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrate-test-"));
      dirs.push(dir);
      return dir;
    };
    afterAll(() => {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it("an instance with MIGRATE_ON_START=off refuses an unmigrated directory; npm run migrate applies every migration once (one JSON line, exit 0); then it opens", async () => {
      const dir = freshDir();
      await expect(openEmbedded(dir, { migrate: false })).rejects.toThrow(/lacks \d+ migration\(s\).*npm run migrate/);
      // The refusal released the directory: the release step can take it.
      const run = () =>
        execFileAsync(process.execPath, ["--import", "tsx", "--import", "./scripts/register-server-only.mjs", "scripts/migrate.ts"], {
          cwd: process.cwd(),
          env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "" },
        });
      expect(JSON.parse((await run()).stdout)).toEqual({ migrated: MIGRATIONS, database: "embedded" });
      expect(await migrateEmbedded(dir)).toBe(0);
      const opened = await openEmbedded(dir, { migrate: false });
      await opened.close();
    });

    it("does not open a directory another process holds, and names the holder", async () => {
      const dir = freshDir();
      // A running server's lock file: another live process (this one's parent) holds the directory.
      const holder = { pid: process.ppid, command: "server.ts", startedAt: new Date().toISOString() };
      fs.writeFileSync(path.join(dir, "pglite.lock"), JSON.stringify(holder));
      const refused = migrateEmbedded(dir);
      await expect(refused).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(refused).rejects.toThrow(`in use by process ${process.ppid} (server.ts`);
      expect(fs.existsSync(path.join(dir, "pglite"))).toBe(false);
    });
  });
}

if (onPostgres) {
  describe("on PostgreSQL", () => {
    const base = new URL(process.env.DATABASE_URL!);
    const admin = postgres(base.toString(), { max: 1, onnotice: () => {} });
    const created: string[] = [];
    async function freshDatabase(): Promise<string> {
      const name = `migrate_${randomBytes(5).toString("hex")}`;
      await admin.unsafe(`create database "${name}"`);
      created.push(name);
      const url = new URL(base);
      url.pathname = `/${name}`;
      return url.toString();
    }
    afterAll(async () => {
      for (const name of created) await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    });

    it("three instances migrating a fresh database at once: one applies every migration, the others wait and find nothing to do", async () => {
      const url = await freshDatabase();
      const results = await Promise.allSettled([migratePostgres(url), migratePostgres(url), migratePostgres(url)]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      const counts = results.map((r) => (r.status === "fulfilled" ? r.value : -1)).sort((x, y) => x - y);
      expect(counts).toEqual([0, 0, MIGRATIONS]);
      const check = postgres(url, { max: 1 });
      try {
        const [row] = await check`select count(*)::int as n from drizzle.__drizzle_migrations`;
        expect(row!.n).toBe(MIGRATIONS);
      } finally {
        await check.end();
      }
    });

    it("instances started with MIGRATE_ON_START=off refuse a database behind the release until npm run migrate has run", async () => {
      const url = await freshDatabase();
      await expect(openPostgres(url, { migrate: false })).rejects.toThrow(/lacks \d+ migration\(s\).*npm run migrate/);
      const { stdout } = await execFileAsync(process.execPath, ["--import", "tsx", "--import", "./scripts/register-server-only.mjs", "scripts/migrate.ts"], {
        cwd: process.cwd(),
        env: { ...process.env, DATABASE_URL: url },
      });
      expect(JSON.parse(stdout)).toEqual({ migrated: MIGRATIONS, database: "postgresql" });
      const opened = await openPostgres(url, { migrate: false, max: 1 });
      await opened.close();
    });
  });
}
