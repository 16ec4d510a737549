import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices, invoiceStatusHistory, merchants } from "@/lib/db/schema";
import { INVOICE_LIFETIME_DEFAULT_SECONDS } from "../contract/field-schemas";
import type { InvoiceDirection } from "@/lib/providers";
import { INITIAL_STATUS } from "../state-machine";
import type { InvoiceRow } from "../store";

/** lib/api still names the row through this module; the type itself lives in the invoice store. */

/** Every column but those the database sets; nullable ones are named explicitly. */
export type NewInvoice = Omit<InvoiceRow, "status" | "resolution" | "createdAt" | "updatedAt" | "processedAmountMinor" | "refundedAmountMinor" | "attemptsCount" | "eventSequence" | "returnUrl" | "expiresAt" | "description" | "cardBrand" | "cardCountry"> &
  Partial<Pick<InvoiceRow, "returnUrl" | "expiresAt" | "description" | "cardBrand" | "cardCountry">>;

/**
 * Inserts the invoice and its first history entry (null → created) in one statement, or nothing
 * when the merchant already has an invoice of this direction with this reference_id. One round
 * trip and atomic without an explicit transaction; under concurrency the unique index lets
 * exactly one insert through and the others wait for it, then do nothing (PostgreSQL and PGlite).
 * Returns the creation and expiry times, or undefined when the reference was taken.
 */
export async function insertInvoiceOnce(
  db: Db,
  values: NewInvoice,
  requestId: string | null,
  lifetimeSeconds?: number,
): Promise<{ createdAt: Date; expiresAt: Date } | undefined> {
  // expires_at = created_at + the invoice's lifetime, else the merchant's setting, in the same
  // statement (now() is the transaction's time, the same value created_at gets), so still one round trip.
  const lifetime = sql`coalesce(${lifetimeSeconds ?? null}::integer, (select ${merchants.invoiceLifetimeSeconds} from ${merchants} where ${merchants.id} = ${values.merchantId}), ${INVOICE_LIFETIME_DEFAULT_SECONDS})`;
  const inserted = db.$with("inserted").as(
    db
      .insert(invoices)
      .values({ ...values, status: INITIAL_STATUS, resolution: null, expiresAt: values.expiresAt ?? sql`now() + make_interval(secs => ${lifetime})` })
      .onConflictDoNothing({ target: [invoices.merchantId, invoices.direction, invoices.referenceId] })
      .returning({ id: invoices.id, createdAt: invoices.createdAt, expiresAt: invoices.expiresAt }),
  );
  // A raw statement because the history's identity id has to be left to the database.
  const history = db.$with("history", { at: sql<Date>`"at"` }).as(
    sql`insert into ${invoiceStatusHistory} ("invoice_id", "from_status", "to_status", "resolution", "reason", "request_id", "at")
        select "id", null, ${INITIAL_STATUS}, null, 'created', ${requestId}, "created_at" from "inserted" returning "at"`,
  );
  const rows = await db.with(inserted, history).select({ createdAt: inserted.createdAt, expiresAt: inserted.expiresAt }).from(inserted);
  return rows[0];
}

export async function findInvoiceByReference(
  db: Db,
  merchantId: string,
  direction: InvoiceDirection,
  referenceId: string,
): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.direction, direction), eq(invoices.referenceId, referenceId)))
    .limit(1);
  return row;
}
