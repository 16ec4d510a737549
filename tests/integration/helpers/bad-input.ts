import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { getTableColumns, getTableName, is, sql } from "drizzle-orm";
import { PgTable, type PgColumn } from "drizzle-orm/pg-core";
import * as schema from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { sendWebResponse, toWebRequest } from "@/server/node-bridge";

/**
 * The bad-input suite for server actions: generated form input, a snapshot of what is
 * stored, the server actions found in the repository's files, and loopback servers that count
 * what an action sends out.
 */

// ---------------------------------------------------------------------------------------------
// What is stored
// ---------------------------------------------------------------------------------------------

/**
 * Tables a refused call may change, each with the reason. Nothing else is left out: every table
 * of lib/db/schema.ts is compared. (pg-boss keeps its jobs in a schema of its own, JOBS_SCHEMA,
 * which holds no table of lib/db/schema.ts; a refused call queues nothing there either, but a
 * queued job is no stored data of the merchant's.)
 */
export const NOT_COMPARED: Record<string, string> = {
  rate_limits:
    "the rate limiters' counters (unlogged): a refused sign-in, password change or confirmation is counted on purpose, and expired rows are swept at any time",
  request_log:
    "the request log: every request with an API key is logged, a refused one on purpose, written within a second of its answer (lib/request-log; tests/integration/request-log.test.ts)",
};

const TABLES = (Object.values(schema) as unknown[]).filter((value) => is(value, PgTable)) as PgTable[];

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const col = (column: PgColumn) => quoted(column.name);
const from = (table: unknown) => quoted(getTableName(table as PgTable));

/**
 * The rows of a table that belong to the merchant: by its merchant id, or by the id of one of its
 * invoices, connections, people or webhook events (every such column, OR'ed: a provider callback
 * may carry a connection id and no merchant id yet). A table with none of these columns is compared
 * whole.
 */
function merchantScope(table: PgTable, merchant: string): string | undefined {
  if (table === (schema.merchants as unknown)) return `x.${col(schema.merchants.id)} = ${merchant}`;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const owned = (column: PgColumn, owner: PgTable, id: PgColumn, by: PgColumn) =>
    `x.${col(column)} in (select ${col(id)} from ${from(owner)} where ${col(by)} = ${merchant})`;
  const parts = [
    columns.merchantId && `x.${col(columns.merchantId)} = ${merchant}`,
    columns.invoiceId && owned(columns.invoiceId, schema.invoices, schema.invoices.id, schema.invoices.merchantId),
    columns.connectionId && owned(columns.connectionId, schema.connections, schema.connections.id, schema.connections.merchantId),
    columns.userId && owned(columns.userId, schema.users, schema.users.id, schema.users.merchantId),
    columns.eventId && owned(columns.eventId, schema.webhookEvents, schema.webhookEvents.id, schema.webhookEvents.merchantId),
  ].filter((part): part is string => typeof part === "string");
  return parts.length ? parts.map((part) => `(${part})`).join(" or ") : undefined;
}

const snapshotSql = new Map<string, string>();

function snapshotQuery(merchantId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(merchantId)) throw new Error(`snapshot: unexpected merchant id ${merchantId}`);
  let text = snapshotSql.get(merchantId);
  if (!text) {
    const merchant = `'${merchantId}'`;
    const columns = TABLES.filter((table) => !(getTableName(table) in NOT_COMPARED)).map((table) => {
      const scope = merchantScope(table, merchant);
      const rows = scope ? `string_agg(x::text, E'\\n' order by x::text) filter (where ${scope})` : `string_agg(x::text, E'\\n' order by x::text)`;
      return `(select count(*) || ':' || md5(coalesce(${rows}, '')) from ${from(table)} x) as ${quoted(getTableName(table))}`;
    });
    text = `select ${columns.join(", ")}`;
    snapshotSql.set(merchantId, text);
  }
  return text;
}

/**
 * One query: for every table of lib/db/schema.ts (but NOT_COMPARED), how many rows it holds in
 * all and a digest of the full content of the merchant's rows (of every row, for a table no
 * merchant owns). A refused call that inserts or deletes a row anywhere changes a count; one that
 * changes a column of any of the merchant's rows in place changes a digest. The merchant's rows
 * rather than every row keep the query's cost independent of what other test files left in a
 * shared database.
 */
export async function snapshotStore(db: Db, merchantId: string): Promise<Record<string, string>> {
  const result = (await db.execute(sql.raw(snapshotQuery(merchantId)))) as unknown as { rows?: Record<string, string>[] } | Record<string, string>[];
  const row = Array.isArray(result) ? result[0]! : result.rows![0]!;
  return Object.fromEntries(Object.entries(row).map(([name, value]) => [name, String(value)]));
}

/** The tables whose count or digest differ, as "table: rows before → after" (the digest when only it changed). */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after)
    .filter((name) => after[name] !== before[name])
    .map((name) => {
      const [countBefore] = (before[name] ?? "").split(":");
      const [countAfter] = after[name]!.split(":");
      return countBefore === countAfter ? `${name}: a row changed in place` : `${name}: ${countBefore} → ${countAfter} rows`;
    });
}

// ---------------------------------------------------------------------------------------------
// Generated input
// ---------------------------------------------------------------------------------------------

export const odd = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    true,
    false,
    0,
    -0,
    1e3,
    -1,
    NaN,
    Infinity,
    2 ** 53 + 1,
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "1e3",
    "-0",
    "NaN",
    "x".repeat(20_000),
    "💳".repeat(50),
    "\u202e\ufeff",
    "%E0%A4%A",
    "__proto__",
    "constructor",
    "owner",
    "support",
    "test",
    "live",
    [],
    {},
    [null],
    JSON.parse('{"__proto__":{"admin":true}}'),
    "conn_x",
    "conn_" + "a".repeat(64),
    "https://127.0.0.1/",
    "javascript:alert(1)",
    "a@b",
    "not-an-email",
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.anything({ maxDepth: 2 }),
);

/**
 * Form input: anything at all, an object of odd values, or a near-valid form with one field
 * changed, removed or added. `valid` names every field of the form (a working submission).
 */
export function formInputArb(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const nearValid = fc
    .tuple(fc.constantFrom(...(keys.length ? keys : ["x"])), odd, fc.constantFrom("replace", "replace", "remove", "add"))
    .map(([key, value, how]) => {
      const copy: Record<string, unknown> = { ...valid };
      if (how === "remove") delete copy[key];
      else if (how === "add") copy[`${key}_extra`] = value;
      else copy[key] = value;
      return copy;
    });
  const oddRecord = fc.dictionary(fc.constantFrom(...(keys.length ? keys : ["x"]), "__proto__", "constructor", "x"), odd, { maxKeys: 6 });
  return fc.oneof({ weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) }, { weight: 2, arbitrary: oddRecord }, { weight: 5, arbitrary: nearValid });
}

/**
 * A browser's form submission of a record: every value as the text a form field holds, and now
 * and then a file where text was expected (what a crafted multipart body can carry).
 */
export function formDataOf(record: Record<string, unknown>, fileAt?: string): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(record)) {
    if (key === fileAt) form.append(key, new Blob([String(value)]), "upload.txt");
    else if (value !== undefined) form.append(key, typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));
  }
  return form;
}

/** Next's redirect() and notFound() are thrown on purpose; anything else escaping an action is a failure. */
export function isNextControlFlow(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" && (digest.startsWith("NEXT_REDIRECT") || digest.startsWith("NEXT_HTTP_ERROR_FALLBACK") || digest === "NEXT_NOT_FOUND");
}

/** Where a redirect() sends the browser (its digest is `NEXT_REDIRECT;<type>;<url>;<status>;`). */
export function redirectTarget(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest !== "string" || !digest.startsWith("NEXT_REDIRECT;")) return undefined;
  const parts = digest.split(";");
  return parts.slice(2, -2).join(";");
}

// ---------------------------------------------------------------------------------------------
// The server actions in the repository's files
// ---------------------------------------------------------------------------------------------

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export const repoPath = (relative: string) => path.join(ROOT, relative);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === "node_modules" || entry.startsWith(".")) return [];
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** A "use server" directive: a statement of its own on its line (a comment naming it is none). */
const DIRECTIVE = /^[ \t]*["']use server["'];?[ \t]*$/gm;

/** The module's directive prologue starts with "use server" (after comments only). */
function isServerModule(source: string): boolean {
  const code = source.replace(/^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/, "");
  return /^["']use server["']/.test(code);
}

export type ServerActionFile = { file: string; module: boolean; inlineDirectives: number };

/**
 * Every .ts/.tsx source file under the folders (tests excluded) that holds a "use server"
 * directive: `module` when the whole file is a server-action module (every export an action),
 * `inlineDirectives` counting the directives inside functions (an action defined inline in a
 * component, which no module exports and no test can import).
 */
export function serverActionFiles(folders: string[]): ServerActionFile[] {
  return folders
    .flatMap((folder) => walk(path.join(ROOT, folder)))
    .map((full) => path.relative(ROOT, full).split(path.sep).join("/"))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts"))
    .sort()
    .flatMap((file) => {
      const source = readFileSync(path.join(ROOT, file), "utf8");
      const directives = source.match(DIRECTIVE)?.length ?? 0;
      const whole = isServerModule(source);
      return directives > 0 || whole ? [{ file, module: whole, inlineDirectives: directives - (whole ? 1 : 0) }] : [];
    });
}

/**
 * The names a module's source exports: `export (async) function f`, `export const f =`,
 * `export { f, g as h }` and `export default` (as "default"). Type-only exports are no action.
 */
export function exportedNames(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/^\s*export\s+(?:async\s+)?(?:function\s*\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/gm)) names.add(match[1]!);
  for (const match of source.matchAll(/^\s*export\s+\{([^}]*)\}/gm)) {
    for (const entry of match[1]!.split(",")) {
      const name = entry
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name && !entry.trim().startsWith("type ")) names.add(name);
    }
  }
  if (/^\s*export\s+default\b/m.test(source)) names.add("default");
  return [...names].sort();
}

export const readRepoFile = (relative: string) => readFileSync(path.join(ROOT, relative), "utf8");

// ---------------------------------------------------------------------------------------------
// What an action sends out
// ---------------------------------------------------------------------------------------------

export type LoopbackServer = { origin: string; requests: string[]; failures: string[]; close: () => Promise<void> };

/**
 * A real HTTP server on 127.0.0.1 answering with `handle`, recording every request as
 * "METHOD /path" and every handler that threw (answered 500) in `failures`.
 */
export async function startLoopbackServer(handle: (request: Request) => Promise<Response>): Promise<LoopbackServer> {
  const requests: string[] = [];
  const failures: string[] = [];
  let origin = "";
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    void (async () => {
      const response = await handle(await toWebRequest(req, origin));
      await sendWebResponse(response, res);
    })().catch((error: unknown) => {
      failures.push(`${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("handler threw");
    });
  });
  // Longer than the client's own idle timeout (fetch keeps a socket 4 s): the client always drops an
  // idle socket first, so it never reuses one the server is closing (ECONNRESET before any request).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
