import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices, merchants } from "@/lib/db/schema";
import { listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import type { DashboardInvoiceListItem } from "@/lib/invoices/read/invoice-view";
import { INVOICE_STATUSES, type InvoiceStatus } from "@/lib/invoices/state-machine";
import type { Mode } from "@/lib/providers";

/**
 * The home page (issue 12): the setup checklist, ticked from what the merchant really has, and a
 * glance at its invoices in the dashboard's Test/Live view.
 */

export const SETUP_STEPS = ["connected", "tested", "apiKey", "paidTestInvoice", "webhook"] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];
export type SetupChecklist = Record<SetupStep, boolean>;

/** Statuses a test payment reaches once the customer paid on the hosted page. */
const PAID = ["processed", "partially_processed"] as const satisfies readonly InvoiceStatus[];

/**
 * Every step in one statement. The checklist is about setting up, so it does not follow the view:
 * "connected" and "tested" count connections of either mode, the invoice step asks for a test one.
 * "tested" means Test connection last passed on a connection that still exists (the connection
 * audit keeps each test's outcome, `ok` when reachable and the credentials were accepted).
 */
export async function getSetupChecklist(db: Db, merchantId: string): Promise<SetupChecklist> {
  // Written out with aliases: inside sql`` Drizzle names columns without their table, which a join makes ambiguous.
  const [row] = await db
    .select({
      connected: sql<boolean>`exists (select 1 from connections c where c.merchant_id = ${merchantId} and c.deleted_at is null)`,
      tested: sql<boolean>`exists (select 1 from connection_audit a join connections c on c.id = a.connection_id
        where a.merchant_id = ${merchantId} and a.action = 'tested' and a.changes @> '["ok"]'::jsonb and c.deleted_at is null)`,
      apiKey: sql<boolean>`exists (select 1 from api_keys k where k.merchant_id = ${merchantId} and k.revoked_at is null)`,
      paidTestInvoice: sql<boolean>`exists (select 1 from invoices i where i.merchant_id = ${merchantId}
        and i.test_mode and i.direction = 'payment' and i.status in (${sql.join(PAID.map((s) => sql`${s}`), sql`, `)}))`,
      webhook: sql<boolean>`${merchants.webhookUrl} is not null`,
    })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  // A merchant that no longer exists has set up nothing.
  return Object.fromEntries(SETUP_STEPS.map((step) => [step, Boolean(row?.[step])])) as SetupChecklist;
}

/** How many of the merchant's invoices of one mode are in each status (every status, zeros included, in the state machine's order). */
export async function countInvoicesByStatus(db: Db, merchantId: string, mode: Mode): Promise<{ status: InvoiceStatus; count: number }[]> {
  const rows = await db
    .select({ status: invoices.status, count: sql<number>`count(*)::int` })
    .from(invoices)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.testMode, mode === "test")))
    .groupBy(invoices.status);
  const counts = new Map(rows.map((row) => [row.status, Number(row.count)]));
  return INVOICE_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 }));
}

export const RECENT_INVOICES = 8;

export type HomeSummary = {
  checklist: SetupChecklist;
  counts: { status: InvoiceStatus; count: number }[];
  recent: DashboardInvoiceListItem[];
};

export async function getHomeSummary(db: Db, merchantId: string, mode: Mode): Promise<HomeSummary> {
  const [checklist, counts, recent] = await Promise.all([
    getSetupChecklist(db, merchantId),
    countInvoicesByStatus(db, merchantId, mode),
    listDashboardInvoices(db, merchantId, { mode, pageSize: RECENT_INVOICES }),
  ]);
  return { checklist, counts, recent: recent.invoices };
}
