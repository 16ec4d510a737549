import { findService } from "@/lib/providers";
import type { InvoiceRow } from "../store";

/**
 * Where a `_hpp` invoice's customer is sent: a page of this app, `/pay/{id}`, that will hand over
 * to the provider's hosted page (the page itself comes with processing; until then the path is
 * reserved and stable, so merchants can already store it). Null for other services.
 */
export function hostedPagePath(row: Pick<InvoiceRow, "id" | "service">): string | null {
  return findService(row.service)?.hostedPage ? `/pay/${row.id}` : null;
}
