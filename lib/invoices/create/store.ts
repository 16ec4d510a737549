import { and, eq, sql } from "drizzle-orm";
import { writeLanes, type Db } from "@/lib/db/client";
import { invoices, invoiceStatusHistory, merchants } from "@/lib/db/schema";
import { INVOICE_LIFETIME_DEFAULT_SECONDS } from "../contract/field-schemas";
import type { InvoiceDirection } from "@/lib/providers";
import { INITIAL_STATUS } from "../state-machine";
import type { InvoiceRow } from "../store";
import { groupCommit, type Batcher } from "./group-commit";

/** lib/api still names the row through this module; the type itself lives in the invoice store. */

/** Every column but those the database sets; nullable ones are named explicitly. */
/** The card's brand and country are kept when a payment is paid (lib/processing/request.ts), never at creation; its payment method once linked (lib/payment-methods). */
export type NewInvoice = Omit<
  InvoiceRow,
  | "status"
  | "resolution"
  | "createdAt"
  | "updatedAt"
  | "processedAmountMinor"
  | "refundedAmountMinor"
  | "disputedAmountMinor"
  | "attemptsCount"
  | "eventSequence"
  | "returnUrl"
  | "expiresAt"
  | "description"
  | "cardBrand"
  | "cardCountry"
  | "authorizedAmountMinor"
  | "captureBefore"
  | "captureAmountMinor"
  | "authorizationRequestKey"
  | "paymentMethodId"
> &
  Partial<Pick<InvoiceRow, "returnUrl" | "expiresAt" | "description">>;

type Insert = { values: NewInvoice; lifetimeSeconds?: number };
type Inserted = { createdAt: Date; expiresAt: Date } | undefined;

/** Largest batch: about 30 parameters a row, far below PostgreSQL's 65,535. */
const BATCH_CAP = 64;

function keyOf(values: NewInvoice): string {
  return `${values.merchantId}\u0000${values.direction}\u0000${values.referenceId}`;
}

/** Every column the create path writes, in a fixed order: the statement's text depends on nothing else. */
const COLUMNS = [
  "id",
  "merchantId",
  "direction",
  "referenceId",
  "requestHash",
  "connectionId",
  "routingReason",
  "routingDetail",
  "service",
  "currency",
  "amount",
  "amountIsNumber",
  "amountMinor",
  "testMode",
  "flow",
  "options",
  "customer",
  "resolvedCustomer",
  "resolvedCustomerSources",
  "gatewayOptions",
  "serviceFields",
  "cardNumberMasked",
  "cardLastFour",
  "returnUrl",
  "description",
  "requestId",
] as const satisfies readonly (keyof NewInvoice)[];
// Every column of NewInvoice but expiresAt (an expression of its own) is in COLUMNS, or this fails to compile.
const allColumns: Exclude<keyof NewInvoice, (typeof COLUMNS)[number] | "expiresAt"> extends never ? true : never = true;
void allColumns;

const JSONB = new Set<string>(COLUMNS.filter((name) => invoices[name].getSQLType() === "jsonb"));

function insertStatement(db: Db, size: number) {
  const rows = Array.from({ length: size }, (_, i) => {
    const at = (name: string) => sql.placeholder(`r${i}_${name}`);
    // jsonb goes as JSON text the caller encodes (so a null stays SQL null, as the query builder sends it).
    const row = Object.fromEntries(COLUMNS.map((name) => [name, JSONB.has(name) ? sql`${at(name)}` : at(name)]));
    // expires_at = created_at + the invoice's lifetime, else the merchant's setting (now() is the
    // transaction's time, the same value created_at gets).
    const lifetime = sql`coalesce(${at("lifetime")}::integer, (select ${merchants.invoiceLifetimeSeconds} from ${merchants} where ${merchants.id} = ${at("merchantId")}), ${sql.raw(String(INVOICE_LIFETIME_DEFAULT_SECONDS))})`;
    return {
      ...row,
      status: INITIAL_STATUS,
      resolution: null,
      expiresAt: sql`coalesce(${at("expiresAt")}::timestamptz, now() + make_interval(secs => ${lifetime}))`,
    };
  });
  const inserted = db.$with("inserted").as(
    db
      .insert(invoices)
      .values(rows as unknown as (typeof invoices.$inferInsert)[])
      .onConflictDoNothing({ target: [invoices.merchantId, invoices.direction, invoices.referenceId] })
      .returning({ id: invoices.id, createdAt: invoices.createdAt, expiresAt: invoices.expiresAt, requestId: invoices.requestId }),
  );
  // A raw statement because the history's identity id has to be left to the database. The
  // entry's request id is the invoice's (the request that created it).
  const history = db.$with("history", { at: sql<Date>`"at"` }).as(
    sql`insert into ${invoiceStatusHistory} ("invoice_id", "from_status", "to_status", "resolution", "reason", "request_id", "at")
        select "id", null, ${sql.raw(`'${INITIAL_STATUS}'`)}, null, 'created', "request_id", "created_at" from "inserted" returning "at"`,
  );
  return db
    .with(inserted, history)
    .select({ id: inserted.id, createdAt: inserted.createdAt, expiresAt: inserted.expiresAt })
    .from(inserted)
    .prepare(`insert_invoices_${size}`);
}

type InsertStatement = ReturnType<typeof insertStatement>;
const statements = new WeakMap<Db, Map<number, InsertStatement>>();

/** The insert of `size` invoices, built and prepared once per database handle (and on PostgreSQL once per connection). */
function preparedInsert(db: Db, size: number): InsertStatement {
  let bySize = statements.get(db);
  if (!bySize) statements.set(db, (bySize = new Map()));
  let statement = bySize.get(size);
  if (!statement) bySize.set(size, (statement = insertStatement(db, size)));
  return statement;
}

/**
 * Inserts the invoices and their first history entries (null → created) in one statement, skipping
 * any whose merchant already has an invoice of that direction with that reference_id. One round
 * trip and atomic without an explicit transaction: all of the batch is stored, or none. Under
 * concurrency the unique index lets exactly one insert of a reference through; the others wait
 * for it, then do nothing (PostgreSQL and PGlite).
 *
 * A reference twice in one batch is written once (the first); the others count as taken, which
 * they are once this statement commits. Rows go in the order of their unique key, so two batches
 * on two connections take the index's entries in the same order and never deadlock on them.
 */
async function insertBatch(db: Db, batch: Insert[]): Promise<Inserted[]> {
  const first = new Map<string, Insert>();
  for (const entry of batch) if (!first.has(keyOf(entry.values))) first.set(keyOf(entry.values), entry);
  const rows = [...first.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
  const params: Record<string, unknown> = {};
  rows.forEach((entry, i) => {
    const values = entry.values as Record<string, unknown>;
    for (const name of COLUMNS) {
      const value = values[name] ?? null;
      params[`r${i}_${name}`] = JSONB.has(name) && value !== null ? JSON.stringify(value) : value;
    }
    params[`r${i}_lifetime`] = entry.lifetimeSeconds ?? null;
    params[`r${i}_expiresAt`] = entry.values.expiresAt?.toISOString() ?? null;
  });
  const stored = await preparedInsert(db, rows.length).execute(params);
  const byId = new Map(stored.map((row) => [row.id, { createdAt: row.createdAt, expiresAt: row.expiresAt }]));
  return batch.map((entry) => byId.get(entry.values.id));
}

const batchers = new WeakMap<Db, Batcher<Insert, Inserted>>();

/**
 * Inserts the invoice and its first history entry, or nothing when the merchant already has an
 * invoice of this direction with this reference_id. Creates that arrive while another is being
 * written are written together with it (group commit, ./group-commit.ts); answered only once the
 * statement holding this row committed. Returns the creation and expiry times, or undefined when
 * the reference was taken.
 */
export function insertInvoiceOnce(db: Db, values: NewInvoice, lifetimeSeconds?: number): Promise<Inserted> {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = groupCommit({ lanes: writeLanes(db), cap: BATCH_CAP, write: (batch) => insertBatch(db, batch) });
    batchers.set(db, batcher);
  }
  return batcher.add({ values, lifetimeSeconds });
}

export async function findInvoiceByReference(db: Db, merchantId: string, direction: InvoiceDirection, referenceId: string): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.direction, direction), eq(invoices.referenceId, referenceId)))
    .limit(1);
  return row;
}
