import "server-only";
import { ApiError, ApiValidationError, testModeOnlyError } from "@/lib/api/errors";
import { jsonApi } from "@/lib/api/responses";
import type { Db } from "@/lib/db/client";
import type { Mode } from "@/lib/providers";
import { testModeOnly } from "@/lib/problems";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import type { CreateRefundResult } from "@/lib/refunds/create-refund";
import { findRefund, listRefunds } from "@/lib/refunds/store";
import { invoiceRefundsPath, toRefundResource } from "./refund-resource";

/** Maps lib/refunds results to JSON:API answers (errors thrown; withApiKey renders them with the request id). */

const invoiceNotFound = (id: string) => new ApiError(404, "not_found", "Not found", `No payment invoice ${id} exists for this merchant`);

export function createRefundResponse(result: CreateRefundResult, invoiceId: string, baseUrl: string): Response {
  switch (result.kind) {
    case "created":
    case "replayed": {
      const resource = toRefundResource(result.refund, baseUrl);
      return jsonApi({ data: resource }, { deferBody: true, status: result.kind === "created" ? 201 : 200, headers: { Location: resource.links.self } });
    }
    case "not_found":
      throw invoiceNotFound(invoiceId);
    case "invalid":
      throw new ApiValidationError(result.problems, { base: "" });
    case "test_only":
      throw testModeOnlyError(testModeOnly("refund", "payment"), "/data/attributes/test_mode");
    case "not_refundable":
      throw new ApiError(409, result.code, "Not refundable", result.detail);
    case "conflict":
      throw new ApiError(
        409,
        "reference_reused",
        "reference_id already used",
        `reference_id was already used for refund ${result.existing.id} with a different body; resend the original body to get that refund, or use a new reference_id`,
        "/data/attributes/reference_id",
      );
  }
}

/** GET …/payment-invoices/{id}/refunds: oldest first; not yours is 404 like unknown. */
export async function refundListResponse(db: Db, merchantId: string, invoiceId: string, baseUrl: string, keyMode?: Mode): Promise<Response> {
  const invoice = await getInvoice(db, merchantId, "payment", invoiceId, keyMode);
  if (!invoice) throw invoiceNotFound(invoiceId);
  const rows = await listRefunds(db, invoiceId);
  return jsonApi(
    { data: rows.map((row) => toRefundResource(row, baseUrl)), links: { self: `${baseUrl}${invoiceRefundsPath(invoiceId)}` } },
    { deferBody: true },
  );
}

/** GET /api/commerce/refunds/{id}; a refund of the other mode than the key's is not found either. */
export async function refundResponse(db: Db, merchantId: string, id: string, baseUrl: string, keyMode?: Mode): Promise<Response> {
  const row = await findRefund(db, merchantId, id);
  if (!row || (keyMode && row.testMode !== (keyMode === "test"))) throw new ApiError(404, "not_found", "Not found", `No refund ${id} exists for this merchant`);
  return jsonApi({ data: toRefundResource(row, baseUrl) }, { deferBody: true });
}
