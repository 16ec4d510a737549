import path from "node:path";

/** Where the embedded database, its lock and the generated keys live. */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || path.join(process.cwd(), ".data"));
}

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite default. */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export function isEmbedded(): boolean {
  return databaseUrl() === undefined;
}
