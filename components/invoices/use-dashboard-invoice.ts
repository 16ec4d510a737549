"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { DashboardInvoice } from "@/lib/invoices/read/invoice-view";
import { fetchInvoice, invoiceKey } from "./invoice-client";

export const STATUS_POLL_MS = 3_000;

/**
 * The invoice as the server rendered it, polled every 3 s while it may still change on its own
 * (isAtRest, computed by the server) and left alone once at rest; a newer server render replaces it. Every caller shares one query and one request.
 */
export function useDashboardInvoice(initial: DashboardInvoice) {
  const client = useQueryClient();
  // The page read again (after a refund, a cancel, Check status now): newer than what the query holds.
  useEffect(() => {
    const key = invoiceKey(initial.id);
    if (initial.readAt > (client.getQueryState(key)?.dataUpdatedAt ?? 0)) client.setQueryData(key, initial, { updatedAt: initial.readAt });
  }, [client, initial]);
  return useQuery({
    queryKey: invoiceKey(initial.id),
    queryFn: ({ signal }) => fetchInvoice(initial.id, signal),
    initialData: initial,
    initialDataUpdatedAt: initial.readAt,
    refetchInterval: (query) => (query.state.data?.atRest ? false : STATUS_POLL_MS),
    refetchOnWindowFocus: (query) => !query.state.data?.atRest,
  });
}
