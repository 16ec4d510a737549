import { and, eq, type Placeholder } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections, invoices } from "@/lib/db/schema";
import type { InvoiceRow } from "../store";

/** What a read shows of the routed connection: never credentials, only what names it. */
const connectionColumns = {
  id: connections.id,
  label: connections.label,
  provider: connections.provider,
  kind: connections.kind,
  mode: connections.mode,
  deletedAt: connections.deletedAt,
};

export type RoutedConnection = {
  id: string;
  label: string;
  provider: string;
  kind: string;
  mode: "test" | "live";
  /** Set once deleted: invoices keep showing the connection that took them. */
  deletedAt: Date | null;
};

/** An invoice with its routed connection (null before routing), read in one statement. */
export type InvoiceWithConnection = InvoiceRow & { connection: RoutedConnection | null };

/** Invoices left-joined to their connection, scoped to the merchant again on the connection side. */
export function selectInvoicesWithConnection(db: Db, merchantId: string | Placeholder) {
  return db
    .select({ invoice: invoices, connection: connectionColumns })
    .from(invoices)
    .leftJoin(connections, and(eq(connections.id, invoices.connectionId), eq(connections.merchantId, merchantId)));
}

export function withConnection(row: { invoice: InvoiceRow; connection: RoutedConnection | null }): InvoiceWithConnection {
  return { ...row.invoice, connection: row.connection };
}
