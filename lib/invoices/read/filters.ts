import { z } from "zod";
import { fail, ok, problem, type Problem, type Result } from "@/lib/problems";
import { getProvider, MODES, type InvoiceDirection, type Mode } from "@/lib/providers";
import { REFERENCE_ID_MAX } from "../contract/field-schemas";
import { invoiceListQuerySchema, PAGE_SIZE_MAX } from "../contract/resource-schemas";
import { INVOICE_STATUSES, type InvoiceStatus } from "../state-machine";
import { SEARCH_MAX } from "./search";
import { EARLIEST, LATEST } from "@/lib/dates";
import { dayInTimeZone, DEFAULT_TIME_ZONE } from "@/lib/time-zones";
import { cursorSchema, decodeCursor } from "./cursor";

/**
 * One filter for every invoice list. The API and the dashboard page each have their own URL
 * vocabulary (`filter[status]`, `page[after]` there; `status`, `after` here), read by a thin reader
 * below into this one type, which listInvoices takes.
 */

const instant = z.date().min(EARLIEST, { error: "must lie between 1970 and 9999" }).max(LATEST, { error: "must lie between 1970 and 9999" });

const invoiceListFilterSchema = z.object({
  direction: z.enum(["payment", "payout"]).optional(),
  status: z.enum(INVOICE_STATUSES).optional(),
  /** The routed connection's provider; checked against the registry when parsed, not when loaded. */
  provider: z
    .string()
    .refine((slug) => getProvider(slug) !== undefined, { error: "is not a provider of the registry" })
    .optional(),
  mode: z.enum(MODES).optional(),
  /** The API matches a reference exactly; the dashboard's search box also finds its beginning. */
  reference: z.object({ value: z.string().min(1).max(REFERENCE_ID_MAX), match: z.enum(["exact", "prefix"]) }).optional(),
  /** The search box: any of an invoice's keys (lib/invoices/read/search.ts). */
  search: z
    .string()
    .min(1)
    .max(SEARCH_MAX, { error: `must be at most ${SEARCH_MAX} characters` })
    .optional(),
  /** Inclusive. */
  createdFrom: instant.optional(),
  /** Exclusive. */
  createdBefore: instant.optional(),
  after: cursorSchema.optional(),
  pageSize: z.int().min(1).max(PAGE_SIZE_MAX),
});

export type InvoiceListFilter = z.output<typeof invoiceListFilterSchema>;
type FilterField = keyof InvoiceListFilter;

/** The API's name for each filter field it offers (REFERENCE list endpoints). */
const API_PARAMETERS: Partial<Record<FilterField, string>> = {
  reference: "filter[reference_id]",
  status: "filter[status]",
  createdFrom: "filter[created_from]",
  createdBefore: "filter[created_to]",
  pageSize: "page[size]",
  after: "page[after]",
};
const KNOWN_API_PARAMETERS = Object.keys(invoiceListQuerySchema.shape);

const toDate = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/**
 * Reads an API list query (`filter[…]`, `page[…]`), every problem at once, each a Problem whose
 * path is the parameter's name. Unknown `filter[…]`/`page[…]` parameters are refused rather than
 * ignored: a typo such as `filter[referense_id]` would otherwise list every invoice.
 */
export function readApiListQuery(params: URLSearchParams, direction: InvoiceDirection): Result<InvoiceListFilter> {
  const problems: Problem[] = [];
  for (const name of new Set(params.keys())) {
    if (/^(filter|page)\[/.test(name) && !KNOWN_API_PARAMETERS.includes(name)) {
      problems.push(problem("unknown_parameter", `Unknown parameter ${name}; use one of ${KNOWN_API_PARAMETERS.join(", ")}`, [name]));
    }
  }
  for (const [name, value] of params) {
    if (value.includes("\u0000")) problems.push(problem("invalid_parameter", `${name} must not contain the NUL character`, [name]));
  }
  const parsed = invoiceListQuerySchema.safeParse(Object.fromEntries(params));
  for (const issue of parsed.error?.issues ?? []) problems.push(problem("invalid_parameter", issue.message, [String(issue.path[0] ?? "")]));
  const after = params.get("page[after]");
  const cursor = after ? decodeCursor(after) : undefined;
  if (after && !cursor) {
    problems.push(problem("invalid_cursor", "page[after] is not a cursor from links.next; start again from the first page", ["page[after]"]));
  }
  if (!parsed.success) return fail(problems);
  const query = parsed.data;
  const reference = query["filter[reference_id]"];
  const filter = checkFilter(
    {
      direction,
      status: query["filter[status]"],
      reference: reference === undefined ? undefined : { value: reference, match: "exact" },
      createdFrom: toDate(query["filter[created_from]"]),
      createdBefore: toDate(query["filter[created_to]"]),
      after: cursor,
      pageSize: query["page[size]"],
    },
    API_PARAMETERS,
  );
  if (!filter.ok) problems.push(...filter.problems);
  return problems.length > 0 || !filter.ok ? fail(problems) : filter;
}

function checkFilter(candidate: Record<string, unknown>, parameters: Partial<Record<FilterField, string>>): Result<InvoiceListFilter> {
  const parsed = invoiceListFilterSchema.safeParse(candidate);
  if (parsed.success) return ok(parsed.data);
  return fail(
    parsed.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? "");
      const name = parameters[field as FilterField] ?? field;
      return problem(field === "after" ? "invalid_cursor" : "invalid_parameter", `${name} ${issue.message}`, [name]);
    }),
  );
}

export const DASHBOARD_PAGE_SIZE = 25;

/** The list page's query parameters as accepted, so a filter object is also its query string and the form's values. */
export type DashboardInvoiceFilters = {
  /** The search box's text. */
  q?: string;
  type?: InvoiceDirection;
  status?: InvoiceStatus;
  provider?: string;
  mode?: Mode;
  /** Exact reference or its beginning. */
  reference?: string;
  /** Created on or after this day (YYYY-MM-DD) of the viewer's zone in force. */
  from?: string;
  /** Created on or before this day (YYYY-MM-DD) of the viewer's zone in force, the whole day included. */
  to?: string;
};

export type DashboardListQuery = {
  filters: DashboardInvoiceFilters;
  after?: string;
  /** Parameters left out because their value cannot be right, for the page to name. */
  invalid: string[];
  filter: InvoiceListFilter;
};

/** How each of the page's parameters becomes a filter field; undefined when the text cannot be one. */
const DASHBOARD_FIELDS: { [K in keyof DashboardInvoiceFilters]-?: (value: string, zone: string) => Record<string, unknown> | undefined } = {
  q: (value) => ({ search: value }),
  type: (value) => ({ direction: value }),
  status: (value) => ({ status: value }),
  provider: (value) => ({ provider: value }),
  mode: (value) => ({ mode: value }),
  reference: (value) => ({ reference: { value, match: "prefix" } }),
  from: (value, zone) => {
    const day = dayInTimeZone(value, zone);
    return day ? { createdFrom: day.start } : undefined;
  },
  to: (value, zone) => {
    const day = dayInTimeZone(value, zone);
    return day ? { createdBefore: day.end } : undefined;
  },
};

const oneField = invoiceListFilterSchema.partial();

type SearchInput = URLSearchParams | Record<string, string | string[] | undefined>;

/**
 * Reads the list page's query (a GET form, so blanks mean "any"). A value that cannot be right is
 * left out and named in `invalid`, so the page can say which filter it ignored.
 *
 * `viewMode` is the dashboard's Test/Live view: when given, it decides the mode and the
 * page's own `mode` parameter is not read, so a list never mixes the other mode's invoices in.
 * `timeZone` is the viewer's zone in force (lib/time-zones.ts `timeZoneInForce`): the days `from`
 * and `to` name are that zone's days, as every date the dashboard shows is.
 */
export function readDashboardListQuery(search: SearchInput, options: { viewMode?: Mode; timeZone?: string } = {}): DashboardListQuery {
  const zone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const read = (name: string) => {
    const raw = search instanceof URLSearchParams ? search.get(name) : search[name];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    return value && !value.includes("\u0000") ? value : undefined;
  };
  const filters: Record<string, string> = {};
  let fields: Record<string, unknown> = {};
  const invalid: string[] = [];
  for (const [name, toField] of Object.entries(DASHBOARD_FIELDS)) {
    const value = read(name);
    if (value === undefined || (name === "type" && value === "all") || (name === "mode" && options.viewMode)) continue;
    const field = toField(value, zone);
    if (field && oneField.safeParse(field).success) {
      filters[name] = value;
      fields = { ...fields, ...field };
    } else {
      invalid.push(name);
    }
  }
  const after = read("after");
  const cursor = after === undefined ? undefined : decodeCursor(after);
  if (after !== undefined && !cursor) invalid.push("after");
  if (options.viewMode) fields = { ...fields, mode: options.viewMode };
  const filter = invoiceListFilterSchema.parse({ ...fields, after: cursor, pageSize: DASHBOARD_PAGE_SIZE });
  return { filters: filters as DashboardInvoiceFilters, after: cursor ? after : undefined, invalid, filter };
}
