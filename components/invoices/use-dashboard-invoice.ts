"use client";

import { useQuery } from "@tanstack/react-query";
import type { DashboardInvoice } from "@/lib/invoices/read/invoice-view";
import { fetchInvoice, invoiceKey } from "./invoice-client";

export const STATUS_POLL_MS = 3_000;

/**
 * The invoice as the server rendered it, polled every 3 s while it may still change (isFinal,
 * computed by the server) and left alone once final. Every caller shares one query and one request.
 */
export function useDashboardInvoice(initial: DashboardInvoice) {
  return useQuery({
    queryKey: invoiceKey(initial.id),
    queryFn: ({ signal }) => fetchInvoice(initial.id, signal),
    initialData: initial,
    initialDataUpdatedAt: initial.readAt,
    refetchInterval: (query) => (query.state.data?.final ? false : STATUS_POLL_MS),
    refetchOnWindowFocus: (query) => !query.state.data?.final,
  });
}
