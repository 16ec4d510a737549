import { ApiError, ApiValidationError, problemsToJsonApi } from "@/lib/api/errors";
import { jsonApi } from "@/lib/api/responses";
import type { Db } from "@/lib/db/client";
import type { InvoiceDirection } from "@/lib/providers";
import { readApiListQuery } from "../invoices/read/filters";
import { listInvoices } from "../invoices/read/list-invoices";
import { invoiceCollectionPath, toInvoiceResource } from "./invoice-resource";
import { noRouteDetail } from "../invoices/create/routing";
import type { CreateInvoiceResult } from "../invoices/create/create-invoice";
import type { InvoiceRow } from "../invoices/create/store";

/**
 * Maps the invoice module's typed results to JSON:API answers, so route handlers stay one call
 * and one mapping. Errors are thrown as ApiError/ApiValidationError; withApiKey renders them
 * with the request id.
 */

/** Links are absolute, on the origin the client used. */
export function baseUrlOf(request: Request): string {
  return new URL(request.url).origin;
}

export function createInvoiceResponse(result: CreateInvoiceResult, baseUrl: string): Response {
  switch (result.kind) {
    case "created":
    case "replayed": {
      const resource = toInvoiceResource(result.invoice, { baseUrl });
      const status = result.kind === "created" ? 201 : 200;
      return jsonApi({ data: resource }, { status, headers: { Location: resource.links.self } });
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
    case "unroutable":
      throw new ApiError(422, "no_connection", "No connection for service", noRouteDetail(result), "/data/attributes/service");
    case "conflict":
      throw new ApiError(
        409,
        "reference_reused",
        "reference_id already used",
        `reference_id was already used for invoice ${result.existing.id} with a different body; ` +
          "resend the original body to get that invoice, or use a new reference_id",
        "/data/attributes/reference_id",
      );
  }
}

export function invoiceResponse(row: InvoiceRow | undefined, direction: InvoiceDirection, id: string, baseUrl: string): Response {
  if (!row) throw new ApiError(404, "not_found", "Not found", `No ${direction} invoice ${id} exists for this merchant`);
  return jsonApi({ data: toInvoiceResource(row, { baseUrl }) });
}

export async function invoiceListResponse(
  db: Db,
  merchantId: string,
  direction: InvoiceDirection,
  request: Request,
  requestId: string,
): Promise<Response> {
  const url = new URL(request.url);
  const filter = readApiListQuery(url.searchParams, direction);
  if (!filter.ok) {
    // JSON:API names a bad query parameter in `source.parameter`, not a body pointer.
    const errors = problemsToJsonApi(filter.problems, { status: 400, source: "parameter" });
    return jsonApi({ errors, meta: { request_id: requestId } }, { status: 400 });
  }
  const page = await listInvoices(db, merchantId, filter.value);
  const baseUrl = url.origin;
  const self = `${baseUrl}${invoiceCollectionPath(direction)}${url.search}`;
  let next: string | null = null;
  if (page.nextCursor) {
    const nextParams = new URLSearchParams(url.searchParams);
    nextParams.set("page[after]", page.nextCursor);
    next = `${baseUrl}${invoiceCollectionPath(direction)}?${nextParams.toString()}`;
  }
  return jsonApi({
    data: page.invoices.map((row) => toInvoiceResource(row, { baseUrl })),
    links: { self, next },
    meta: { page_size: filter.value.pageSize },
  });
}
