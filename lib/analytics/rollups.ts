import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { SETTLED_ATTEMPT_STATUSES, type AttemptStatus, type InvoiceStatus } from "@/lib/db/enums";
import { overviewRollups } from "@/lib/db/schema";

/**
 * The overview's rollups (table `overview_rollups`). Invariant: the table equals a GROUP BY over
 * what the invoices, attempts and refunds say now, where each row contributes as below. The same
 * contribution queries feed both paths:
 *
 * - incremental: a transaction that changes a contributing row takes the row's contribution out
 *   before the change and puts the new one in after it (`on conflict do update` adds), so there is
 *   no job to lose and two writers on one key are serialised by the row lock;
 * - rebuild (`npm run admin -- rebuild-rollups`): empties a merchant's rows and inserts the sums
 *   over all its rows again, in batches of invoices.
 *
 * Every contribution lands twice: in its `hour` row and in its `day` row (the overview reads days
 * for periods of several days), in the same statement.
 *
 * Contributions (hours are UTC, of the row's creation or start, so a row never changes bucket):
 * - `invoice`: an invoice that reached a provider (attempts_count > 0) and has an outcome: status
 *   `processed` (processed, partially processed, refunding or refunded, canceling or partially
 *   canceled: amount = what was processed) or `failed` (process_failed or expired, with its
 *   resolution: amount = what was asked), or `authorized` (authorize now, capture later: authorized, or a
 *   capture or void of it in progress: amount = what is reserved, apart from what was captured; a
 *   capture moves it to `processed`, a void to none). Open, terminated, voided and fully canceled
 *   invoices count as none.
 * - `attempt`: a settled attempt (succeeded, declined, soft_failed) on its connection with its
 *   resolution, its latency in LATENCY_BUCKETS_MS, and `recovered` when it succeeded after an
 *   earlier attempt of the invoice failed softly (the cascade saved the payment).
 * - `refund`: a succeeded refund, on the connection that took the payment.
 */

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Executor = Db | Tx;

/** Upper bounds (ms, exclusive) of the latency histogram's buckets; the last one is open. Factor 2 from 25 ms. */
export const LATENCY_BUCKETS_MS = [25, 50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, Number.POSITIVE_INFINITY] as const;

/** Invoice statuses that mean "it was processed" for the overview. */
const PROCESSED_CLASS = [
  "processed",
  "partially_processed",
  "refunding",
  "refunded",
  "partially_refunded",
  "canceling",
  "partially_canceled",
] as const satisfies readonly InvoiceStatus[];
/** Invoice statuses that mean "a provider was reached and it did not go through". */
const FAILED_CLASS = ["process_failed", "expired"] as const satisfies readonly InvoiceStatus[];
/** Invoice statuses that mean "money is reserved, not taken yet" (authorize now, capture later). */
const AUTHORIZED_CLASS = ["authorized", "capturing", "voiding"] as const satisfies readonly InvoiceStatus[];

export type InvoiceClass = "processed" | "failed" | "authorized" | "none";

export function invoiceClassOf(status: InvoiceStatus): InvoiceClass {
  if ((PROCESSED_CLASS as readonly string[]).includes(status)) return "processed";
  if ((FAILED_CLASS as readonly string[]).includes(status)) return "failed";
  if ((AUTHORIZED_CLASS as readonly string[]).includes(status)) return "authorized";
  return "none";
}

export function attemptIsSettled(status: AttemptStatus): boolean {
  return (SETTLED_ATTEMPT_STATUSES as readonly string[]).includes(status);
}

const list = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));

/** The bucket index of a latency in ms (SQL over a column name), null when none was measured. */
function latencyBucketSql(column: string): SQL {
  const cases = LATENCY_BUCKETS_MS.slice(0, -1).map((bound, index) => `when ${column} < ${bound} then ${index}`);
  return sql.raw(`case when ${column} is null then null ${cases.join(" ")} else ${LATENCY_BUCKETS_MS.length - 1} end`);
}

/** The contribution of each invoice matching `where` (over alias i). */
function invoiceContributions(where: SQL): SQL {
  return sql`
    select i.merchant_id, i.test_mode, date_trunc('hour', i.created_at, 'UTC') as hour, 'invoice'::text as source, i.direction,
      coalesce(i.connection_id, '') as connection_id,
      case when i.status in (${list(PROCESSED_CLASS)}) then 'processed' when i.status in (${list(AUTHORIZED_CLASS)}) then 'authorized' else 'failed' end as status,
      case when i.status in (${list([...PROCESSED_CLASS, ...AUTHORIZED_CLASS])}) then '' else coalesce(i.resolution, '') end as resolution,
      i.currency,
      case when i.status in (${list(PROCESSED_CLASS)}) then coalesce(i.processed_amount_minor, 0)
        when i.status in (${list(AUTHORIZED_CLASS)}) then coalesce(i.authorized_amount_minor, i.amount_minor)
        else i.amount_minor end as amount,
      0 as recovered, 0::bigint as recovered_amount, null::int as lat
    from invoices i
    where i.attempts_count > 0 and i.status in (${list([...PROCESSED_CLASS, ...FAILED_CLASS, ...AUTHORIZED_CLASS])}) and ${where}`;
}

/** The contribution of each settled attempt matching `where` (over aliases a and its invoice i). */
function attemptContributions(where: SQL): SQL {
  const recovered = sql`(a.status = 'succeeded' and a.seq > 1 and exists (
    select 1 from invoice_attempts p where p.invoice_id = a.invoice_id and p.seq < a.seq and p.status = 'soft_failed'))`;
  return sql`
    select i.merchant_id, i.test_mode, date_trunc('hour', a.started_at, 'UTC') as hour, 'attempt'::text as source, i.direction,
      a.connection_id, a.status, coalesce(a.resolution, '') as resolution, i.currency,
      case when a.status = 'succeeded' then coalesce(a.processed_amount_minor, 0) else i.amount_minor end as amount,
      case when ${recovered} then 1 else 0 end as recovered,
      case when ${recovered} then coalesce(a.processed_amount_minor, 0) else 0 end as recovered_amount,
      ${latencyBucketSql("a.latency_ms")} as lat
    from invoice_attempts a join invoices i on i.id = a.invoice_id
    where a.status in (${list(SETTLED_ATTEMPT_STATUSES)}) and ${where}`;
}

/** The contribution of each succeeded refund matching `where` (over alias r). */
function refundContributions(where: SQL): SQL {
  return sql`
    select r.merchant_id, r.test_mode, date_trunc('hour', r.created_at, 'UTC') as hour, 'refund'::text as source, 'payment'::text as direction,
      r.connection_id, 'succeeded'::text as status, ''::text as resolution, r.currency, r.amount_minor as amount,
      0 as recovered, 0::bigint as recovered_amount, null::int as lat
    from refunds r
    where r.status = 'succeeded' and ${where}`;
}

/**
 * The contribution of each dispute matching `where` (over alias d): every dispute counts (the
 * connections' dispute rate), its amount under its status, so the overview takes lost and accepted
 * ones off the net. In the hour it was opened, so a change of status moves it within one row key.
 */
function disputeContributions(where: SQL): SQL {
  return sql`
    select d.merchant_id, d.test_mode, date_trunc('hour', d.created_at, 'UTC') as hour, 'dispute'::text as source, 'payment'::text as direction,
      d.connection_id, d.status, ''::text as resolution, d.currency, d.amount_minor as amount,
      0 as recovered, 0::bigint as recovered_amount, null::int as lat
    from disputes d
    where ${where}`;
}

const KEY = sql.raw("merchant_id, test_mode, grain, hour, source, direction, connection_id, status, resolution, currency");
/** The contribution columns, each contribution once per grain: its hour, and its UTC day. */
const GRAINED = sql.raw(
  "merchant_id, test_mode, g.grain, case when g.grain = 'day' then date_trunc('day', c.hour, 'UTC') else c.hour end as hour, source, direction, connection_id, status, resolution, currency",
);

type KeyRow = {
  merchant_id: string;
  test_mode: boolean;
  grain: string;
  hour: string | Date;
  source: string;
  direction: string;
  connection_id: string;
  status: string;
  resolution: string;
  currency: string;
  count: string | number;
};

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Adds (sign 1) or takes out (sign -1) the grouped contributions. A row taken down to zero is
 * deleted, so the table holds exactly what a rebuild would.
 */
async function apply(db: Executor, contributions: SQL, sign: 1 | -1): Promise<void> {
  const s = sql.raw(String(sign));
  const buckets = LATENCY_BUCKETS_MS.map((_, index) => sql`${s} * count(*) filter (where lat = ${sql.raw(String(index))})`);
  const merged = LATENCY_BUCKETS_MS.map((_, index) => sql.raw(`overview_rollups.latency[${index + 1}] + excluded.latency[${index + 1}]`));
  const result = await db.execute(sql`
    insert into overview_rollups (${KEY}, count, amount_minor, recovered_count, recovered_amount_minor, latency)
    select ${KEY}, ${s} * count(*), (${s} * sum(amount))::bigint, ${s} * sum(recovered)::bigint, (${s} * sum(recovered_amount))::bigint,
      array[${sql.join(buckets, sql`, `)}]::int[]
    from (select ${GRAINED}, amount, recovered, recovered_amount, lat from (${contributions}) c cross join (values ('hour'), ('day')) g(grain)) c
    group by ${KEY}
    on conflict (${KEY}) do update set
      count = overview_rollups.count + excluded.count,
      amount_minor = overview_rollups.amount_minor + excluded.amount_minor,
      recovered_count = overview_rollups.recovered_count + excluded.recovered_count,
      recovered_amount_minor = overview_rollups.recovered_amount_minor + excluded.recovered_amount_minor,
      latency = array[${sql.join(merged, sql`, `)}]::int[]
    ${sign === -1 ? sql`returning ${KEY}, count` : sql``}`);
  if (sign === 1) return;
  for (const row of rowsOf<KeyRow>(result)) {
    if (Number(row.count) !== 0) continue;
    await db
      .delete(overviewRollups)
      .where(
        and(
          eq(overviewRollups.merchantId, row.merchant_id),
          eq(overviewRollups.testMode, row.test_mode),
          eq(overviewRollups.grain, row.grain as "hour"),
          eq(overviewRollups.hour, new Date(row.hour)),
          eq(overviewRollups.source, row.source as "invoice"),
          eq(overviewRollups.direction, row.direction as "payment"),
          eq(overviewRollups.connectionId, row.connection_id),
          eq(overviewRollups.status, row.status),
          eq(overviewRollups.resolution, row.resolution),
          eq(overviewRollups.currency, row.currency),
          eq(overviewRollups.count, 0),
        ),
      );
  }
}

// ---- Incremental: called inside the transaction that changes the row ------------------------

/** Before an invoice's status changes (its row as it is now): take its contribution out. */
export function takeOutInvoice(tx: Executor, invoiceId: string): Promise<void> {
  return apply(tx, invoiceContributions(sql`i.id = ${invoiceId}`), -1);
}

/** After an invoice's status changed: put its contribution in. */
export function putInInvoice(tx: Executor, invoiceId: string): Promise<void> {
  return apply(tx, invoiceContributions(sql`i.id = ${invoiceId}`), 1);
}

export function takeOutAttempt(tx: Executor, attemptId: string): Promise<void> {
  return apply(tx, attemptContributions(sql`a.id = ${attemptId}`), -1);
}

export function putInAttempt(tx: Executor, attemptId: string): Promise<void> {
  return apply(tx, attemptContributions(sql`a.id = ${attemptId}`), 1);
}

export function putInRefund(tx: Executor, refundId: string): Promise<void> {
  return apply(tx, refundContributions(sql`r.id = ${refundId}`), 1);
}

/** Before a dispute's status changes (its row as it is now, in the transaction that changes it): take its contribution out. */
export function takeOutDispute(tx: Executor, disputeId: string): Promise<void> {
  return apply(tx, disputeContributions(sql`d.id = ${disputeId}`), -1);
}

/** After a dispute was opened or its status changed: put its contribution in. */
export function putInDispute(tx: Executor, disputeId: string): Promise<void> {
  return apply(tx, disputeContributions(sql`d.id = ${disputeId}`), 1);
}

// ---- Rebuild --------------------------------------------------------------------------------

const REBUILD_BATCH = 20_000;

/**
 * Recomputes the rollups from the invoices, attempts, refunds and disputes: every merchant, or one. One
 * transaction that first locks the table (EXCLUSIVE: readers go on, the incremental writers of
 * settling invoices wait), so a change committed during the rebuild is either in what it reads
 * or applied on top of it afterwards, never both and never lost. Invoices in batches of
 * REBUILD_BATCH by id, each batch with its attempts and refunds.
 */
export async function rebuildRollups(
  db: Db,
  options: { merchantId?: string; batch?: number; onProgress?: (invoices: number) => void } = {},
): Promise<{ invoices: number; rows: number }> {
  const batch = options.batch ?? REBUILD_BATCH;
  const onlyMerchant = (alias: string) => (options.merchantId ? sql`${sql.raw(alias)}.merchant_id = ${options.merchantId}` : sql`true`);
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table overview_rollups in exclusive mode`);
    if (options.merchantId) await tx.delete(overviewRollups).where(eq(overviewRollups.merchantId, options.merchantId));
    else await tx.delete(overviewRollups);
    let after = "";
    let done = 0;
    for (;;) {
      const [bounds] = rowsOf<{ upto: string | null; n: string }>(
        await tx.execute(sql`select max(id) as upto, count(*) as n from (
          select i.id from invoices i where i.id > ${after} and ${onlyMerchant("i")} order by i.id limit ${batch}) b`),
      );
      if (!bounds?.upto) break;
      const inBatch = (alias: string) => sql`${sql.raw(alias)}.id > ${after} and ${sql.raw(alias)}.id <= ${bounds.upto} and ${onlyMerchant(alias)}`;
      await apply(tx, invoiceContributions(inBatch("i")), 1);
      await apply(tx, attemptContributions(inBatch("i")), 1);
      await apply(tx, refundContributions(sql`r.invoice_id > ${after} and r.invoice_id <= ${bounds.upto} and ${onlyMerchant("r")}`), 1);
      await apply(tx, disputeContributions(sql`d.invoice_id > ${after} and d.invoice_id <= ${bounds.upto} and ${onlyMerchant("d")}`), 1);
      after = bounds.upto;
      done += Number(bounds.n);
      options.onProgress?.(done);
    }
    const [count] = rowsOf<{ n: string }>(
      await tx.execute(sql`select count(*) as n from overview_rollups where ${options.merchantId ? sql`merchant_id = ${options.merchantId}` : sql`true`}`),
    );
    return { invoices: done, rows: Number(count?.n ?? 0) };
  });
}
