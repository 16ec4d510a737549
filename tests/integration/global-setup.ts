// Runs once before the integration files (vitest.config.ts, globalSetup).
// - Embedded default: migrates one PGlite, dumps its data directory to a file, and hands the path to
//   the files (`inject("pgliteTemplate")`): each file then opens a copy of it instead of running
//   initdb and every migration again (tests/integration/helpers/db.ts).
// - PostgreSQL (DATABASE_URL): files run on two workers side by side, and several files count whole
//   tables (tests/integration/bad-input-actions.test.ts: "nothing stored for a refusal"). So each
//   worker gets a database of its own, `<database>_w<pool id>`, created here and dropped after the
//   run; tests/integration/setup.ts points the worker's DATABASE_URL at it. Files of one worker run
//   one after the other, so they share it safely, as they shared one database before.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { workerDatabaseUrl } from "./helpers/worker-database";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresBaseUrl: string;
  }
}

async function setUpPostgres(project: TestProject, base: string): Promise<() => Promise<void>> {
  const workers = Math.max(1, project.config.maxWorkers);
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const names = Array.from({ length: workers }, (_, i) => new URL(workerDatabaseUrl(base, String(i + 1))).pathname.slice(1));
  try {
    for (const name of names) {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.unsafe(`create database "${name}"`);
    }
  } finally {
    await admin.end();
  }
  project.provide("pgliteTemplate", "");
  project.provide("postgresBaseUrl", base);
  return async () => {
    const again = postgres(base, { max: 1, onnotice: () => {} });
    try {
      for (const name of names) await again.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await again.end();
    }
  };
}

export default async function setup(project: TestProject): Promise<() => void | Promise<void>> {
  const base = process.env.DATABASE_URL;
  if (base) return setUpPostgres(project, base);
  project.provide("postgresBaseUrl", "");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "po-pglite-template-"));
  const file = path.join(dir, "template.tar");
  const client = await PGlite.create();
  try {
    await migrate(drizzle(client), { migrationsFolder: path.join(process.cwd(), "lib/db/migrations") });
    const dump = await client.dumpDataDir("none");
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
  project.provide("pgliteTemplate", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
