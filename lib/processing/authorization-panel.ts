import "server-only";
import type { Role } from "@/lib/db/schema";
import { canInMode } from "@/lib/identity/permissions";
import type { InvoiceRow } from "@/lib/invoices/store";
import { formatMinor } from "@/lib/money";
import { capabilitiesOf } from "@/lib/providers/capabilities";
import { getProvider } from "@/lib/providers";

/**
 * The invoice page's Authorization section (components/invoices/invoice-authorization.tsx): what
 * was authorized, until when, what the provider can capture, and whether this viewer may capture
 * or void it now. Plain JSON for a client component.
 */
export type AuthorizationPanel = {
  status: InvoiceRow["status"];
  authorizedAmount: string | null;
  capturedAmount: string | null;
  currency: string;
  /** When the authorization lapses (ISO); null once settled or when unknown. */
  captureBefore: string | null;
  /** The provider captures less than authorized (the rest released). */
  partialCapture: boolean;
  providerName: string | null;
  /** The payer's name as sent with the invoice (never a provider default); null: the confirmation names the reference or nobody. */
  customerName: string | null;
  customerReference: string | null;
  /** Why this viewer cannot capture or void now, or null when the buttons are offered. */
  blocked: string | null;
};

/** Authorizations only: a payment of `flow: "authorize"` once the provider has answered Pay (authorized or after). */
const AUTHORIZATION_STATUSES: ReadonlySet<InvoiceRow["status"]> = new Set([
  "authorized",
  "capturing",
  "voiding",
  "voided",
  "processed",
  "partially_processed",
  "refunding",
  "refunded",
  "partially_refunded",
]);

/** From the invoice as the page read it, with the connection that authorized it (its provider's capabilities). */
export function readAuthorizationPanel(invoice: InvoiceRow & { connection: { provider: string } | null }, role: Role): AuthorizationPanel | null {
  if (invoice.direction !== "payment" || invoice.flow !== "authorize" || invoice.authorizedAmountMinor === null) return null;
  if (!AUTHORIZATION_STATUSES.has(invoice.status)) return null;
  const connection = invoice.connection;
  const capabilities = connection ? capabilitiesOf(connection.provider) : undefined;
  const mode = invoice.testMode ? "test" : "live";
  const blocked =
    invoice.status !== "authorized"
      ? null
      : !canInMode(role, "money.capture", mode)
        ? invoice.testMode
          ? "Your role does not capture or void payments."
          : "Only an owner or a finance member can capture or void a live payment."
        : null;
  const name =
    invoice.resolvedCustomerSources?.["customer.name"]?.source === "request" || !invoice.resolvedCustomerSources ? invoice.resolvedCustomer?.name : undefined;
  const reference = (invoice.customer as { reference_id?: unknown } | null)?.reference_id;
  return {
    status: invoice.status,
    authorizedAmount: formatMinor(invoice.authorizedAmountMinor, invoice.currency),
    capturedAmount: invoice.processedAmountMinor === null ? null : formatMinor(invoice.processedAmountMinor, invoice.currency),
    currency: invoice.currency,
    captureBefore: invoice.status === "authorized" && invoice.captureBefore ? invoice.captureBefore.toISOString() : null,
    partialCapture: capabilities?.partialCapture ?? false,
    providerName: connection ? (getProvider(connection.provider)?.name ?? connection.provider) : null,
    customerName: typeof name === "string" && name.trim() ? name : null,
    customerReference: typeof reference === "string" || typeof reference === "number" ? String(reference) : null,
    blocked,
  };
}
