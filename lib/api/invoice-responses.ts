import { ApiError, ApiValidationError, keyModeMismatchError } from "@/lib/api/errors";
import { publicBaseUrl } from "@/lib/config";
import { jsonApi } from "@/lib/api/responses";
import type { Db } from "@/lib/db/client";
import type { InvoiceDirection, Mode } from "@/lib/providers";
import { readApiListQuery } from "../invoices/read/filters";
import { listInvoices } from "../invoices/read/list-invoices";
import { invoiceCollectionPath, toInvoiceResource } from "./invoice-resource";
import { noRouteDetail } from "../invoices/create/routing";
import type { CreateInvoiceResult } from "../invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { csvResponse, exportFileName, invoiceCsvStream } from "../invoices/export/invoice-csv";
import { parseMediaType } from "./negotiation";

/**
 * Maps the invoice module's typed results to JSON:API answers, so route handlers stay one call
 * and one mapping. Errors are thrown as ApiError/ApiValidationError; withApiKey renders them
 * with the request id.
 */

/**
 * The list's query parameters: every `filter[…]` and `page[…]` goes to readApiListQuery, which
 * refuses unknown ones with all its other problems at once; anything else answers 400 first.
 */
export const INVOICE_LIST_PARAMETERS = [/^(filter|page)\[/];

/**
 * A list URL on the public base URL: the query is re-serialised by URLSearchParams, so `filter[…]`
 * brackets and any other reserved character come out percent-encoded (a valid URI, RFC 3986).
 */
function listUrl(direction: InvoiceDirection, params: URLSearchParams): string {
  const url = new URL(`${publicBaseUrl()}${invoiceCollectionPath(direction)}`);
  url.search = params.toString();
  return url.href;
}

export function createInvoiceResponse(result: CreateInvoiceResult, baseUrl: string): Response {
  switch (result.kind) {
    case "created":
    case "replayed": {
      const resource = toInvoiceResource(result.invoice, { baseUrl });
      const status = result.kind === "created" ? 201 : 200;
      return jsonApi({ data: resource }, { deferBody: true, status, headers: { Location: resource.links.self } });
    }
    case "invalid":
      // The contract's paths are from the document root.
      throw new ApiValidationError(result.problems, { base: "" });
    case "forbidden":
      throw new ApiError(
        403,
        "forbidden_commerce_account",
        "Not your commerce account",
        "commerce_account must be the commerce account of the API key's merchant",
        "/data/attributes/commerce_account",
      );
    case "test_only":
      throw new ApiError(
        403,
        "test_mode_only",
        "Test mode only",
        "Support members may create test-mode invoices only: set test_mode to true",
        "/data/attributes/test_mode",
      );
    case "key_mode_mismatch":
      throw keyModeMismatchError(result.keyMode);
    case "unroutable":
      throw new ApiError(422, "no_connection", "No connection for service", noRouteDetail(result), "/data/attributes/service");
    case "conflict":
      throw new ApiError(
        409,
        "reference_reused",
        "reference_id already used",
        result.otherMode
          ? "reference_id was already used for an invoice of the other mode (test or live) than this API key's; use a new reference_id"
          : `reference_id was already used for invoice ${result.existing.id} with a different body; ` +
              "resend the original body to get that invoice, or use a new reference_id",
        "/data/attributes/reference_id",
      );
  }
}

export function invoiceResponse(row: InvoiceRow | undefined, direction: InvoiceDirection, id: string, baseUrl: string): Response {
  if (!row) throw new ApiError(404, "not_found", "Not found", `No ${direction} invoice ${id} exists for this merchant`);
  return jsonApi({ data: toInvoiceResource(row, { baseUrl }) }, { deferBody: true });
}

/**
 * Whether the client asks for the list as CSV: `text/csv` in Accept, weighted at least as high as
 * any JSON type it names (a wildcard alone keeps JSON:API, the default).
 */
export function acceptsCsv(request: Request): boolean {
  const header = request.headers.get("accept");
  if (!header) return false;
  let csv = 0;
  let json = 0;
  for (const part of header.split(",")) {
    const media = parseMediaType(part);
    const weight = Number(media.parameters.find((parameter) => parameter.name === "q")?.value ?? 1);
    const q = Number.isFinite(weight) ? weight : 0;
    if (media.type === "text/csv") csv = Math.max(csv, q);
    else if (media.type.endsWith("json")) json = Math.max(json, q);
  }
  return csv > 0 && csv >= json;
}

/**
 * The same list as CSV (`Accept: text/csv`): the same query parameters, read and refused alike,
 * but every invoice the filters select, streamed in batches from page[after] if given; page[size]
 * does not cut it.
 */
export function invoiceCsvListResponse(db: Db, merchantId: string, direction: InvoiceDirection, request: Request, keyMode?: Mode): Response {
  const filter = readApiListQuery(new URL(request.url).searchParams, direction);
  if (!filter.ok) throw new ApiValidationError(filter.problems, { status: 400, source: "parameter" });
  // A key exports the invoices of its own mode only, as it lists them.
  return csvResponse(invoiceCsvStream(db, merchantId, keyMode ? { ...filter.value, mode: keyMode } : filter.value), exportFileName(`${direction}s`));
}

export async function invoiceListResponse(db: Db, merchantId: string, direction: InvoiceDirection, request: Request, keyMode?: Mode): Promise<Response> {
  const url = new URL(request.url);
  const filter = readApiListQuery(url.searchParams, direction);
  // JSON:API names a bad query parameter in `source.parameter`, not a body pointer.
  if (!filter.ok) throw new ApiValidationError(filter.problems, { status: 400, source: "parameter" });
  // A key lists the invoices of its own mode only.
  const page = await listInvoices(db, merchantId, keyMode ? { ...filter.value, mode: keyMode } : filter.value);
  const baseUrl = publicBaseUrl();
  const self = listUrl(direction, url.searchParams);
  let next: string | null = null;
  if (page.nextCursor) {
    const nextParams = new URLSearchParams(url.searchParams);
    nextParams.set("page[after]", page.nextCursor);
    next = listUrl(direction, nextParams);
  }
  return jsonApi(
    {
      data: page.invoices.map((row) => toInvoiceResource(row, { baseUrl })),
      links: { self, next },
      meta: { page_size: filter.value.pageSize },
    },
    { deferBody: true },
  );
}
