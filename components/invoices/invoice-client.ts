import { formatInZone } from "@/lib/format";
import type { DashboardInvoiceFilters } from "@/lib/invoices/read/filters";
import type { DashboardInvoice, DashboardInvoicePage } from "@/lib/invoices/read/invoice-view";

/**
 * Browser side of the dashboard's invoice reads: query keys and fetchers for the session routes
 * under /api/dashboard/invoices. Types only from lib/invoices/read, which stays on the server.
 */

export const invoiceListKey = (filters: DashboardInvoiceFilters, start: string | null) => ["dashboard-invoices", filters, start] as const;
export const invoiceKey = (id: string) => ["dashboard-invoice", id] as const;

/** The list page's query string; the filter names are the form's field names. */
export function invoiceSearch(filters: DashboardInvoiceFilters, after?: string | null): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, String(value));
  if (after) params.set("after", after);
  return params.toString();
}

async function readJson<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => undefined)) as { data?: T; errors?: { detail?: string }[] } | undefined;
  if (!response.ok || body?.data === undefined) {
    throw new Error(body?.errors?.[0]?.detail ?? `The server answered ${response.status}`);
  }
  return body.data;
}

export async function fetchInvoicePage(filters: DashboardInvoiceFilters, after: string | null, signal: AbortSignal): Promise<DashboardInvoicePage> {
  const response = await fetch(`/api/dashboard/invoices?${invoiceSearch(filters, after)}`, { signal, cache: "no-store" });
  return readJson<DashboardInvoicePage>(response);
}

export async function fetchInvoice(id: string, signal: AbortSignal): Promise<DashboardInvoice> {
  const response = await fetch(`/api/dashboard/invoices/${encodeURIComponent(id)}`, { signal, cache: "no-store" });
  return readJson<DashboardInvoice>(response);
}

/** "08:26:10 UTC" (or in the zone in force): same text on the server and in the browser. */
export function formatClock(time: number, zone: string): string {
  return formatInZone(time, zone, "clock");
}

/** "22 Nov 2026, 08:26:10 UTC" (or in the zone in force): to the second, for a timeline of changes. */
export function formatMoment(value: string, zone: string): string {
  return formatInZone(value, zone, "second");
}
