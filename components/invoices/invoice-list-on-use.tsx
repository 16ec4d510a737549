"use client";

import { hydrateOnUse } from "@/components/forms/hydrate-on-use";
import { REFRESH_MS } from "./invoice-refresh";

/**
 * The list as the server renders it; its live half (TanStack Query: refreshes, Show more) loads on
 * the first use or when the first refresh is due, so a cold load pays only for the page.
 */
export const InvoiceListOnUse = hydrateOnUse(() => import("./live-invoice-list").then((m) => m.LiveInvoiceList), "invoice-list", { liveAfterMs: REFRESH_MS });

/** The invoice list's filters as the server renders them, made live on their first use (components/forms/hydrate-on-use.tsx). */
export const InvoiceFiltersOnUse = hydrateOnUse(() => import("./invoice-filters").then((m) => m.InvoiceFilters), "invoice-filters");
