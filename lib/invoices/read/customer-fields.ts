import type { FieldSource } from "@/lib/customers";
import { isPlainObject, listLeaves } from "@/lib/customers/object-paths";
import type { CustomerSources } from "@/lib/db/schema";

/** `source` is null only for invoices created before sources were recorded. */
export type DashboardCustomerField = { path: string; value: unknown; source: FieldSource | null; constant?: string };

const CUSTOMER_PREFIX = "customer.";

/**
 * The resolved customer as rows of the invoice page, each with the source resolveCustomer recorded
 * at creation. Paths are spec paths: `customer.…` for the customer's fields, and a provider's own
 * targets outside it (Provider B's `language`) bare; the recorded paths say which is which. An
 * invoice from before sources were recorded shows every value under `customer.` and no source.
 */
export function listCustomerFields(resolved: Record<string, unknown>, sources: CustomerSources | null): DashboardCustomerField[] {
  const recorded = (path: string) => (sources && Object.hasOwn(sources, path) ? sources[path] : undefined);
  const fields = listLeaves(isPlainObject(resolved) ? resolved : {}).map(({ segments, value }): DashboardCustomerField => {
    const relative = segments.join(".");
    // Targets outside the customer never start with "customer." (resolveCustomer tells them apart that way).
    const outside = !relative.startsWith(CUSTOMER_PREFIX) && recorded(relative) !== undefined;
    const path = outside ? relative : `${CUSTOMER_PREFIX}${relative}`;
    const entry = recorded(path);
    if (entry?.source === "constant" && entry.constant !== undefined) return { path, value, source: "constant", constant: entry.constant };
    return { path, value, source: entry?.source ?? null };
  });
  return fields.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
