import { and, desc, eq, gte, like, lt, sql, type SQL } from "drizzle-orm";
import type { FieldSource } from "@/lib/customers";
import { getPath, isPlainObject, isPresent, listLeaves } from "@/lib/customers/object-paths";
import type { Db } from "@/lib/db/client";
import { connections, invoices } from "@/lib/db/schema";
import { getKind, getProvider, MODES, type InvoiceDirection, type KindSpec, type Mode } from "@/lib/providers";
import { REFERENCE_ID_MAX } from "../contract/field-schemas";
import { decodeCursor, encodeCursor, getInvoice } from "./queries";
import { hostedPageUrl } from "../../api/invoice-resource";
import { INVOICE_ID_PREFIXES } from "../contract/resource-schemas";
import { INVOICE_TYPES } from "../contract/schemas";
import { INVOICE_STATUSES, isFinal, type InvoiceStatus, type Resolution } from "../state-machine";
import { getStatusHistory } from "../status";
import type { InvoiceRow } from "../create/store";

/**
 * Dashboard reads of invoices (issue 6, pages). Everything returned is plain JSON (dates as ISO
 * strings) because it goes to client components and the session route as is. Never credentials:
 * only a connection's label, provider, kind and mode are read.
 */

export const DASHBOARD_PAGE_SIZE = 25;

/** Named exactly as the list page's query parameters, so a filter object is also its query string. */
export type DashboardInvoiceFilters = {
  type?: InvoiceDirection;
  status?: InvoiceStatus;
  provider?: string;
  mode?: Mode;
  /** Exact reference or its beginning. */
  reference?: string;
  /** Created on or after this UTC day (YYYY-MM-DD). */
  from?: string;
  /** Created on or before this UTC day (YYYY-MM-DD), the whole day included. */
  to?: string;
};

export type DashboardListQuery = { filters: DashboardInvoiceFilters; after?: string; invalid: string[] };

type SearchInput = URLSearchParams | Record<string, string | string[] | undefined>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day (2024-02-30 is refused, not rolled over) from 1970 on. */
function isDay(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00.000Z`);
  return DAY.test(value) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(value) && value >= "1970";
}
const oneOf = <T extends string>(values: readonly T[]) => (value: string): value is T => (values as readonly string[]).includes(value);

const CHECKS: { [K in keyof DashboardInvoiceFilters]-?: (value: string) => boolean } = {
  type: oneOf(["payment", "payout"] as const),
  status: oneOf(INVOICE_STATUSES),
  provider: (value) => getProvider(value) !== undefined,
  mode: oneOf(MODES),
  reference: (value) => value.length <= REFERENCE_ID_MAX,
  from: isDay,
  to: isDay,
};

/**
 * Reads the list page's query (a GET form, so blanks mean "any"). A value that cannot be right is
 * left out and named in `invalid`, so the page can say which filter it ignored.
 */
export function parseDashboardQuery(search: SearchInput): DashboardListQuery {
  const read = (name: string) => {
    const raw = search instanceof URLSearchParams ? search.get(name) : search[name];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    return value && !value.includes("\u0000") ? value : undefined;
  };
  const filters: Record<string, string> = {};
  const invalid: string[] = [];
  for (const [name, check] of Object.entries(CHECKS)) {
    const value = read(name);
    if (value === undefined || (name === "type" && value === "all")) continue;
    if (check(value)) filters[name] = value;
    else invalid.push(name);
  }
  const after = read("after");
  if (after !== undefined && !decodeCursor(after)) invalid.push("after");
  return { filters: filters as DashboardInvoiceFilters, after: after && decodeCursor(after) ? after : undefined, invalid };
}

export type DashboardConnection = {
  id: string;
  label: string;
  provider: string;
  providerName: string;
  kind: string;
  kindLabel: string;
  mode: Mode;
  deleted: boolean;
};

export type DashboardInvoiceListItem = {
  id: string;
  direction: InvoiceDirection;
  referenceId: string;
  status: InvoiceStatus;
  resolution: Resolution | null;
  amount: string;
  currency: string;
  service: string;
  testMode: boolean;
  createdAt: string;
  connection: DashboardConnection | null;
};

export type DashboardInvoicePage = {
  invoices: DashboardInvoiceListItem[];
  nextCursor: string | null;
  /** When the server read the page (ms since epoch): client caches date their copy by it. */
  readAt: number;
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000);

function conditions(merchantId: string, filters: DashboardInvoiceFilters, after: string | undefined): SQL[] {
  const where: SQL[] = [eq(invoices.merchantId, merchantId)];
  if (filters.type) where.push(eq(invoices.direction, filters.type));
  if (filters.status) where.push(eq(invoices.status, filters.status));
  if (filters.provider) where.push(eq(connections.provider, filters.provider));
  if (filters.mode) where.push(eq(invoices.testMode, filters.mode === "test"));
  // A prefix match also finds the exact reference.
  if (filters.reference) where.push(like(invoices.referenceId, `${escapeLike(filters.reference)}%`));
  if (filters.from) where.push(gte(invoices.createdAt, new Date(`${filters.from}T00:00:00.000Z`)));
  if (filters.to) where.push(lt(invoices.createdAt, nextDay(filters.to)));
  const cursor = after === undefined ? undefined : decodeCursor(after);
  if (cursor) where.push(sql`(${invoices.createdAt}, ${invoices.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})`);
  return where;
}

const connectionColumns = {
  connectionId: connections.id,
  connectionLabel: connections.label,
  connectionProvider: connections.provider,
  connectionKind: connections.kind,
  connectionMode: connections.mode,
  connectionDeletedAt: connections.deletedAt,
};

type ConnectionColumns = {
  connectionId: string | null;
  connectionLabel: string | null;
  connectionProvider: string | null;
  connectionKind: string | null;
  connectionMode: Mode | null;
  connectionDeletedAt: Date | null;
};

function toConnection(row: ConnectionColumns): DashboardConnection | null {
  if (!row.connectionId || !row.connectionLabel || !row.connectionProvider || !row.connectionKind || !row.connectionMode) return null;
  return {
    id: row.connectionId,
    label: row.connectionLabel,
    provider: row.connectionProvider,
    providerName: getProvider(row.connectionProvider)?.name ?? row.connectionProvider,
    kind: row.connectionKind,
    kindLabel: getKind(row.connectionProvider, row.connectionKind)?.label ?? row.connectionKind,
    mode: row.connectionMode,
    deleted: row.connectionDeletedAt !== null,
  };
}

/** The routed connection, scoped to the merchant again; deleted ones still show (invoices keep their history). */
const connectionJoin = (merchantId: string) => and(eq(connections.id, invoices.connectionId), eq(connections.merchantId, merchantId));

/**
 * Payment and payout invoices together, newest first, 25 a page. Keyset pagination on
 * (created_at, id), the same cursor as the API's: invoices created meanwhile sort before the
 * cursor, so later pages neither repeat nor skip rows.
 */
export async function listDashboardInvoices(
  db: Db,
  merchantId: string,
  filters: DashboardInvoiceFilters,
  after?: string,
): Promise<DashboardInvoicePage> {
  const readAt = Date.now();
  const rows = await db
    .select({
      id: invoices.id,
      direction: invoices.direction,
      referenceId: invoices.referenceId,
      status: invoices.status,
      resolution: invoices.resolution,
      amount: invoices.amount,
      currency: invoices.currency,
      service: invoices.service,
      testMode: invoices.testMode,
      createdAt: invoices.createdAt,
      ...connectionColumns,
    })
    .from(invoices)
    .leftJoin(connections, connectionJoin(merchantId))
    .where(and(...conditions(merchantId, filters, after)))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(DASHBOARD_PAGE_SIZE + 1);
  const page = rows.slice(0, DASHBOARD_PAGE_SIZE);
  const last = page.at(-1);
  return {
    invoices: page.map((row) => ({ ...invoiceSummary(row), connection: toConnection(row) })),
    nextCursor: rows.length > DASHBOARD_PAGE_SIZE && last ? encodeCursor(last) : null,
    readAt,
  };
}

export type CustomerFieldSource = FieldSource | "unknown";

export type DashboardCustomerField = { path: string; value: unknown; source: CustomerFieldSource; constant?: string };

export type DashboardHistoryEntry = {
  id: number;
  from: InvoiceStatus | null;
  to: InvoiceStatus;
  resolution: Resolution | null;
  reason: string;
  at: string;
};

export type DashboardInvoice = Omit<DashboardInvoiceListItem, "connection"> & {
  flow: string | null;
  updatedAt: string;
  requestId: string | null;
  cardNumberMasked: string | null;
  /** No move can follow (isFinal): the detail page stops polling. */
  final: boolean;
  /** `/pay/{id}` for `_hpp` services, relative to the app's origin; null otherwise. */
  hostedPagePath: string | null;
  connection: DashboardConnection | null;
  request: Record<string, unknown>;
  customer: DashboardCustomerField[];
  history: DashboardHistoryEntry[];
  /** When the server read the invoice (ms since epoch). */
  readAt: number;
};

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Where each resolved customer value came from. The invoice stores the customer as sent and as
 * resolved, but not the connection's constants at that moment, so re-running resolveCustomer with
 * today's constants could credit a value to a constant that has changed since. Instead: a value
 * equal to what the request sent came from the request (the resolver always prefers it); else from
 * the kind's built-in default when it equals it; else from the constant aimed at that path. A
 * constant set to exactly the default value reads as "default" (the provider received the same).
 */
export function customerFieldSources(
  sent: Record<string, unknown> | null,
  resolved: Record<string, unknown>,
  kind: Pick<KindSpec, "constants" | "defaults"> | undefined,
): DashboardCustomerField[] {
  const specs = kind?.constants ?? [];
  const defaults = kind?.defaults ?? {};
  const outside = [...specs.map((s) => s.target), ...Object.keys(defaults)].filter((path) => !path.startsWith("customer."));
  const fields = listLeaves(isPlainObject(resolved) ? resolved : {}).map(({ segments, value }): DashboardCustomerField => {
    const relative = segments.join(".");
    const path = outside.some((p) => relative === p || relative.startsWith(`${p}.`)) ? relative : `customer.${relative}`;
    const asSent = getPath(sent, segments);
    if (isPresent(asSent) && sameValue(asSent, value)) return { path, value, source: "request" };
    if (Object.hasOwn(defaults, path) && sameValue(defaults[path], value)) return { path, value, source: "default" };
    const constant = specs.find((spec) => spec.target === path);
    if (constant) return { path, value, source: "constant", constant: constant.name };
    return { path, value, source: "unknown" };
  });
  return fields.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The request body rebuilt from the stored columns: the invoice keeps every attribute as sent,
 * except that the card number is only kept masked, commerce_account is not stored (it had to be
 * the merchant's own), and the customer shows under attributes whichever of its three allowed
 * places it came in.
 */
type SummaryColumns = Pick<
  InvoiceRow,
  "id" | "direction" | "referenceId" | "status" | "resolution" | "amount" | "currency" | "service" | "testMode" | "createdAt"
>;

/** The fields the list and the detail page both show, as plain JSON. */
function invoiceSummary(row: SummaryColumns) {
  return {
    id: row.id,
    direction: row.direction,
    referenceId: row.referenceId,
    status: row.status,
    resolution: row.resolution,
    amount: row.amount,
    currency: row.currency,
    service: row.service,
    testMode: row.testMode,
    createdAt: row.createdAt.toISOString(),
  };
}

function requestAsSent(row: InvoiceRow): Record<string, unknown> {
  const attributes: Record<string, unknown> = {
    service: row.service,
    currency: row.currency,
    amount: row.amountIsNumber ? Number(row.amount) : row.amount,
    reference_id: row.referenceId,
    test_mode: row.testMode,
  };
  if (row.flow !== null) attributes.flow = row.flow;
  if (row.cardNumberMasked !== null) attributes.fields = { card_number: row.cardNumberMasked };
  if (Object.keys(row.options).length > 0) attributes.options = row.options;
  if (row.customer !== null) attributes.customer = row.customer;
  if (row.gatewayOptions !== null) attributes.gateway_options = row.gatewayOptions;
  if (row.serviceFields !== null) attributes.service_fields = row.serviceFields;
  return { data: { type: INVOICE_TYPES[row.direction], attributes } };
}

async function findRoutedConnection(db: Db, merchantId: string, connectionId: string | null): Promise<DashboardConnection | null> {
  if (connectionId === null) return null;
  const [row] = await db
    .select(connectionColumns)
    .from(connections)
    .where(and(eq(connections.id, connectionId), eq(connections.merchantId, merchantId)))
    .limit(1);
  return row ? toConnection(row) : null;
}

export function directionOfId(id: string): InvoiceDirection | undefined {
  if (id.startsWith(INVOICE_ID_PREFIXES.payout)) return "payout";
  if (id.startsWith(INVOICE_ID_PREFIXES.payment)) return "payment";
  return undefined;
}

/** One of the merchant's invoices of either direction (by id prefix), or undefined (also for another merchant's). */
export async function getDashboardInvoice(db: Db, merchantId: string, id: string): Promise<DashboardInvoice | undefined> {
  const readAt = Date.now();
  const direction = directionOfId(id);
  const row = direction && (await getInvoice(db, merchantId, direction, id));
  if (!row) return undefined;
  const connection = await findRoutedConnection(db, merchantId, row.connectionId);
  const history = await getStatusHistory(db, row.id);
  const kind = connection ? getKind(connection.provider, connection.kind) : undefined;
  return {
    ...invoiceSummary(row),
    flow: row.flow,
    updatedAt: row.updatedAt.toISOString(),
    requestId: row.requestId,
    cardNumberMasked: row.cardNumberMasked,
    final: isFinal(row.status),
    hostedPagePath: hostedPageUrl(row, { baseUrl: "" }),
    connection,
    request: requestAsSent(row),
    customer: customerFieldSources(row.customer, row.resolvedCustomer, kind),
    history: history.map((entry) => ({
      id: entry.id,
      from: entry.fromStatus,
      to: entry.toStatus,
      resolution: entry.resolution,
      reason: entry.reason,
      at: entry.at.toISOString(),
    })),
    readAt,
  };
}
