import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices, merchants } from "@/lib/db/schema";
import { listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import type { DashboardInvoiceListItem } from "@/lib/invoices/read/invoice-view";
import { INVOICE_STATUSES, type InvoiceStatus } from "@/lib/invoices/state-machine";
import type { Mode } from "@/lib/providers";

/**
 * The home page: the setup checklist, ticked from what the merchant really has, and a
 * glance at its invoices in the dashboard's Test/Live view.
 */

export const SETUP_STEPS = ["connected", "tested", "apiKey", "paidTestInvoice", "webhook"] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];
export type SetupChecklist = Record<SetupStep, boolean>;

/** Statuses a test payment reaches once the customer paid on the hosted page. */
const PAID = ["processed", "partially_processed"] as const satisfies readonly InvoiceStatus[];

/**
 * Every step in one statement. The connection and key steps follow the view (`mode`): in the Live
 * view a test connection or test key does not set up live payments (a key serves one mode), so they
 * count that mode's only; the invoice step always asks for a test payment, the webhook step any
 * enabled endpoint.
 * "tested" means Test connection passed on a connection that still exists (the connection
 * audit keeps each test's outcome, `ok` when reachable and the credentials were accepted; a test
 * before saving counts once exactly its values are saved, lib/connections/test-receipt.ts).
 */
export async function getSetupChecklist(db: Db, merchantId: string, mode: Mode = "test"): Promise<SetupChecklist> {
  // Written out with aliases: inside sql`` Drizzle names columns without their table, which a join makes ambiguous.
  const [row] = await db
    .select({
      connected: sql<boolean>`exists (select 1 from connections c where c.merchant_id = ${merchantId} and c.mode = ${mode} and c.deleted_at is null)`,
      tested: sql<boolean>`exists (select 1 from audit_log a join connections c on c.id = a.target_id
        where a.merchant_id = ${merchantId} and a.target_type = 'connection' and a.action = 'connection.tested' and a.changes @> '["ok"]'::jsonb and c.mode = ${mode} and c.deleted_at is null)`,
      apiKey: sql<boolean>`exists (select 1 from api_keys k where k.merchant_id = ${merchantId} and k.mode = ${mode} and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()))`,
      paidTestInvoice: sql<boolean>`exists (select 1 from invoices i where i.merchant_id = ${merchantId}
        and i.test_mode and i.direction = 'payment' and i.status in (${sql.join(
          PAID.map((s) => sql`${s}`),
          sql`, `,
        )}))`,
      webhook: sql<boolean>`exists (select 1 from webhook_endpoints w where w.merchant_id = ${merchantId} and w.enabled)`,
    })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  // A merchant that no longer exists has set up nothing.
  return Object.fromEntries(SETUP_STEPS.map((step) => [step, Boolean(row?.[step])])) as SetupChecklist;
}

/** Counts on the home page stop here ("99+"): past it a glance needs no exact figure, and the list has the rest. */
export const STATUS_COUNT_CAP = 99;

export type StatusCount = { status: InvoiceStatus; count: number; atLeast: boolean };

/**
 * How many of the merchant's invoices of one mode are in each status (every status, zeros
 * included, in the state machine's order), counted up to STATUS_COUNT_CAP. An exact count reads
 * every invoice the merchant has (0.6 s on PostgreSQL and 3.4 s on PGlite at a million, see
 * `npm run bench:growth`); here each direction × status reads at most CAP + 1 entries of
 * invoices_list_status_idx, so the page costs the same at any size. `atLeast` marks a count that
 * reached the cap.
 */
export async function countInvoicesByStatus(db: Db, merchantId: string, mode: Mode): Promise<StatusCount[]> {
  const branches = (["payment", "payout"] as const).flatMap((direction) =>
    INVOICE_STATUSES.map(
      (status) => sql`(select ${status}::text as "status", count(*)::int as "count" from (
        select 1 from ${invoices}
        where ${invoices.merchantId} = ${merchantId} and ${invoices.direction} = ${direction}
          and ${invoices.testMode} = ${mode === "test"} and ${invoices.status} = ${status}
        limit ${STATUS_COUNT_CAP + 1}) as "bounded")`,
    ),
  );
  const result = await db.execute(sql.join(branches, sql` union all `));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { status: string; count: number | string }[];
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.status, (sums.get(row.status) ?? 0) + Number(row.count));
  return INVOICE_STATUSES.map((status) => {
    const sum = sums.get(status) ?? 0;
    return { status, count: Math.min(sum, STATUS_COUNT_CAP), atLeast: sum > STATUS_COUNT_CAP };
  });
}

const RECENT_INVOICES = 8;

export type HomeSummary = {
  checklist: SetupChecklist;
  counts: StatusCount[];
  recent: DashboardInvoiceListItem[];
};

export async function getHomeSummary(db: Db, merchantId: string, mode: Mode): Promise<HomeSummary> {
  const [checklist, counts, recent] = await Promise.all([
    getSetupChecklist(db, merchantId, mode),
    countInvoicesByStatus(db, merchantId, mode),
    listDashboardInvoices(db, merchantId, { mode, pageSize: RECENT_INVOICES }),
  ]);
  return { checklist, counts, recent: recent.invoices };
}
