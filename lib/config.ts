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

/**
 * This server's public address (`APP_URL`), for every URL handed to someone outside: the hosted
 * page in `hpp_url`, the sandboxes' base URL, 3-D Secure returns. Never the loopback address the
 * process listens on. Without APP_URL: http://localhost:$PORT, right for a developer's machine.
 */
export function publicBaseUrl(): string {
  const configured = process.env.APP_URL?.trim();
  if (configured) return configured.replace(/\/+$/, "");
  return `http://localhost:${process.env.PORT ?? 3000}`;
}
