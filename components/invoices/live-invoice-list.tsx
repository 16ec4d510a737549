"use client";

import type { ComponentProps } from "react";
import { QueryProvider } from "@/components/providers/query-provider";
import { InvoiceList } from "./invoice-list";

/** The list with its own client cache: what InvoiceListOnUse loads, TanStack Query included. */
export function LiveInvoiceList(props: ComponentProps<typeof InvoiceList>) {
  return (
    <QueryProvider>
      <InvoiceList {...props} />
    </QueryProvider>
  );
}
