import "server-only";
import { dayInTimeZone } from "@/lib/time-zones";
import { readDisputeListQuery, type DisputeListFilter } from "./list";

/**
 * The Disputes page's query (`status`, `connection`, `due_before` as a day of the viewer's zone,
 * `after`), read through the API's own list query (lib/disputes/list.ts), so the page, its Export
 * CSV and the API filter alike. What cannot be read is named in `invalid` and left out.
 */

const DISPUTE_PAGE_PARAMS = ["status", "connection", "due_before", "after"] as const;
type PageParam = (typeof DISPUTE_PAGE_PARAMS)[number];
export type DisputePageFilters = Partial<Record<PageParam, string>>;

const API_NAMES: Record<Exclude<PageParam, "due_before">, string> = { status: "filter[status]", connection: "filter[connection]", after: "page[after]" };

export function readDisputePageQuery(
  raw: Record<string, string | string[] | undefined> | URLSearchParams,
  timeZone: string,
): { filters: DisputePageFilters; filter: Omit<DisputeListFilter, "mode">; invalid: PageParam[] } {
  const get = (name: string) => {
    const value = raw instanceof URLSearchParams ? raw.get(name) : raw[name];
    const text = Array.isArray(value) ? value[0] : value;
    return text?.trim() ? text.trim() : undefined;
  };
  const filters: DisputePageFilters = {};
  const invalid: PageParam[] = [];
  const accepted = new URLSearchParams();
  for (const name of DISPUTE_PAGE_PARAMS) {
    const value = get(name);
    if (value === undefined) continue;
    const params = new URLSearchParams();
    if (name === "due_before") {
      const day = dayInTimeZone(value, timeZone);
      if (!day) {
        invalid.push(name);
        continue;
      }
      params.set("filter[due_before]", day.end.toISOString());
    } else params.set(API_NAMES[name], value);
    // Each parameter alone through the API's check: a bad one is dropped, the others kept.
    if (!readDisputeListQuery(params).ok) {
      invalid.push(name);
      continue;
    }
    filters[name] = value;
    for (const [key, v] of params) accepted.set(key, v);
  }
  const read = readDisputeListQuery(accepted);
  return { filters, filter: read.ok ? read.value : { pageSize: 20 }, invalid };
}
