"use client";

import { hydrateOnUse } from "@/components/forms/hydrate-on-use";
import { REFRESH_MS } from "./invoice-refresh";

/**
 * The list as the server renders it; its live half (TanStack Query: refreshes, Show more) loads on
 * the first use or when the first refresh is due, so a cold load pays only for the page.
 */
export const InvoiceListOnUse = hydrateOnUse(() => import("./live-invoice-list").then((m) => m.LiveInvoiceList), "invoice-list", { liveAfterMs: REFRESH_MS });
