import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { providerCallbacks } from "@/lib/db/schema";
import { getProvider } from "@/lib/providers/lookup";
import type { InvoiceCallbackView } from "./views";

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/**
 * The provider callbacks stored against one invoice of this merchant, oldest first (the invoice
 * page's "Provider callbacks"). Another merchant's invoice id gives an empty list. Callbacks that
 * named no attempt (forged, for an unknown connection) belong to no invoice and are not listed.
 */
export async function listInvoiceCallbacks(db: Db, merchantId: string, invoiceId: string): Promise<InvoiceCallbackView[]> {
  const rows = await db
    .select({
      id: providerCallbacks.id,
      receivedAt: providerCallbacks.receivedAt,
      provider: providerCallbacks.provider,
      outcome: providerCallbacks.outcome,
      reason: providerCallbacks.reason,
      reported: providerCallbacks.reported,
      notificationId: providerCallbacks.notificationId,
      attemptId: providerCallbacks.attemptId,
    })
    .from(providerCallbacks)
    .where(and(eq(providerCallbacks.merchantId, merchantId), eq(providerCallbacks.invoiceId, invoiceId)))
    .orderBy(asc(providerCallbacks.receivedAt), asc(providerCallbacks.id));
  return rows.map((row) => ({
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    provider: row.provider,
    providerName: getProvider(row.provider)?.name ?? row.provider,
    outcome: row.outcome,
    reason: row.reason,
    reportedStatus: text(row.reported?.status),
    reportedResolution: text(row.reported?.resolution),
    notificationId: row.notificationId,
    attemptId: row.attemptId,
    refundId: text(row.reported?.refund),
  }));
}
