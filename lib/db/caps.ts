import { count, eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { merchants } from "./schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** What a cap counts: the rows of `table` whose `merchantColumn` is the merchant. */
export type MerchantCap = { table: PgTable; merchantColumn: PgColumn; max: number };

/**
 * Inserts within a per-merchant cap. Counting first and inserting after lets simultaneous
 * requests all see room and all insert, so the count and the insert share one transaction that
 * first locks the merchant's row: every capped insert of one merchant waits for the one before it
 * to commit, and then counts its rows. `no key update` leaves the row's key lock free, so inserts
 * that only reference the merchant (invoices, attempts) never wait on it.
 * Returns `{ ok: false }` when the merchant already has `max` rows; nothing is inserted then.
 */
export async function insertWithinCap<T>(
  db: Db,
  merchantId: string,
  cap: MerchantCap,
  insert: (tx: Tx) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false }> {
  return db.transaction(async (tx) => {
    await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("no key update");
    const [row] = await tx.select({ n: count() }).from(cap.table).where(eq(cap.merchantColumn, merchantId));
    if ((row?.n ?? 0) >= cap.max) return { ok: false as const };
    return { ok: true as const, value: await insert(tx) };
  });
}
