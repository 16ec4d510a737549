import fc from "fast-check";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import * as schema from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";

/** Issue 13 suite 5 ("Bad input") for server actions: generated form input and a row count of every table. */

const tables = (Object.values(schema) as unknown[]).filter((value) => is(value, PgTable)).map((table) => getTableName(table as PgTable));

/** Rows in every table of the schema, in one query. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const select = tables.map((name) => `(select count(*) from "${name}")::int as "${name}"`).join(", ");
  const result = (await db.execute(sql.raw(`select ${select}`))) as unknown as { rows?: Record<string, number>[] } | Record<string, number>[];
  const row = Array.isArray(result) ? result[0]! : result.rows![0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

export function changedTables(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(after).filter((name) => after[name] !== before[name]).map((name) => `${name}: ${before[name]} → ${after[name]}`);
}

const odd = fc.oneof(
  fc.constantFrom<unknown>(null, undefined, true, false, 0, -0, 1e3, -1, NaN, Infinity, 2 ** 53 + 1, "", " ", "\u0000", "a\u0000b", "1e3", "-0", "NaN", "x".repeat(20_000), "💳".repeat(50), "\u202e\ufeff", "%E0%A4%A", "__proto__", "constructor", "owner", "support", "test", "live", [], {}, [null], JSON.parse('{"__proto__":{"admin":true}}'), "conn_x", "conn_" + "a".repeat(64), "https://127.0.0.1/", "javascript:alert(1)", "a@b", "not-an-email"),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.anything({ maxDepth: 2 }),
);

/** Form input: anything at all, an object of odd values, or a near-valid form with one field changed, removed or added. */
export function formInputArb(fields: string[], valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = [...new Set([...fields, ...Object.keys(valid)])];
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
  return fc.oneof(
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
    { weight: 2, arbitrary: oddRecord },
    { weight: 5, arbitrary: nearValid },
  );
}

/** Next's redirect() and notFound() are thrown on purpose; anything else escaping an action is a failure. */
export function isNextControlFlow(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" && (digest.startsWith("NEXT_REDIRECT") || digest.startsWith("NEXT_HTTP_ERROR_FALLBACK") || digest === "NEXT_NOT_FOUND");
}
