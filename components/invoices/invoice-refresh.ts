/** How often the invoice list refreshes itself (and when its live half is due, InvoiceListOnUse). */
export const REFRESH_MS = 10_000;
