import "server-only";
import { ApiError, ApiValidationError } from "@/lib/api/errors";
import { jsonApi } from "@/lib/api/responses";
import { publicBaseUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { DISPUTE_ID } from "@/lib/ids/patterns";
import type { DisputeActionResult } from "@/lib/disputes/respond";
import { disputeCsvStream, listDisputes, readDisputeListQuery } from "@/lib/disputes/list";
import { findDispute } from "@/lib/disputes/store";
import type { UploadResult } from "@/lib/disputes/files";
import type { FileRow } from "@/lib/disputes/files";
import { csvResponse } from "@/lib/invoices/export/invoice-csv";
import type { Mode } from "@/lib/providers";
import { DISPUTES_PATH, toDisputeResource } from "./dispute-resource";
import { toFileResource } from "./file-resource";

/** Maps lib/disputes results to JSON:API answers (errors thrown; withApiKey renders them with the request id). */

export const DISPUTE_LIST_PARAMETERS = [/^(filter|page)\[/];

const disputeNotFound = (id: string) => new ApiError(404, "not_found", "Not found", `No dispute ${id} exists for this merchant`);

/** What a key of this mode (or the composer's test-only credential) sees: its own mode only. */
export function visibleMode(keyMode: Mode | undefined, testOnly: boolean): Mode | undefined {
  return keyMode ?? (testOnly ? "test" : undefined);
}

function listUrl(params: URLSearchParams): string {
  const query = params.toString();
  return `${publicBaseUrl()}${DISPUTES_PATH}${query ? `?${query}` : ""}`;
}

/** GET /api/commerce/disputes: newest first, keyset pages; `Accept: text/csv` gives every page as CSV. */
export async function disputeListResponse(db: Db, merchantId: string, request: Request, mode: Mode | undefined, csv: boolean): Promise<Response> {
  const url = new URL(request.url);
  const filter = readDisputeListQuery(url.searchParams);
  if (!filter.ok) throw new ApiValidationError(filter.problems, { status: 400, source: "parameter" });
  const scoped = { ...filter.value, ...(mode ? { mode } : {}) };
  if (csv) return csvResponse(disputeCsvStream(db, merchantId, scoped), `disputes-${new Date().toISOString().slice(0, 10)}.csv`);
  const page = await listDisputes(db, merchantId, scoped);
  let next: string | undefined;
  if (page.nextCursor) {
    const params = new URLSearchParams(url.searchParams);
    params.set("page[after]", page.nextCursor);
    next = listUrl(params);
  }
  const baseUrl = publicBaseUrl();
  return jsonApi(
    {
      data: page.disputes.map((row) => toDisputeResource(row, baseUrl)),
      links: { self: listUrl(url.searchParams), ...(next ? { next } : {}) },
      meta: { page_size: filter.value.pageSize },
    },
    { deferBody: true },
  );
}

/** GET /api/commerce/disputes/{id}: another merchant's, or the other mode's, is 404 like none. */
export async function disputeResponse(db: Db, merchantId: string, id: string, mode: Mode | undefined): Promise<Response> {
  const row = DISPUTE_ID.test(id) ? await findDispute(db, merchantId, id, mode) : undefined;
  if (!row) throw disputeNotFound(id);
  return jsonApi({ data: toDisputeResource(row, publicBaseUrl()) }, { deferBody: true });
}

/** Evidence, Submit and Accept answers. */
export function disputeActionResponse(result: DisputeActionResult, id: string): Response {
  switch (result.kind) {
    case "ok":
      return jsonApi({ data: toDisputeResource(result.dispute, publicBaseUrl()) }, { deferBody: true });
    case "not_found":
      throw disputeNotFound(id);
    case "invalid":
      throw new ApiValidationError(result.problems, { base: "" });
    case "conflict":
      throw new ApiError(409, result.code, "Not possible now", result.detail);
    case "provider_failed":
      throw new ApiError(502, "provider_unavailable", "The provider did not take it", result.detail);
  }
}

export function uploadResponse(result: UploadResult): Response {
  switch (result.kind) {
    case "created": {
      const resource = toFileResource(result.file, publicBaseUrl());
      return jsonApi({ data: resource }, { status: 201, headers: { Location: resource.links.self } });
    }
    case "invalid":
      throw new ApiValidationError(result.problems, { base: "" });
    case "too_large":
      throw new ApiError(413, "payload_too_large", "File too large", result.detail, "/data/attributes/file");
    case "unsupported_type":
      throw new ApiError(415, "unsupported_file_type", "Unsupported file type", result.detail, "/data/attributes/file");
  }
}

/** GET /api/commerce/files/{id}: the bytes, as an attachment of the type they were checked to be. */
export function fileResponse(row: FileRow | undefined, id: string): Response {
  if (!row) throw new ApiError(404, "not_found", "Not found", `No file ${id} exists for this merchant`);
  const ascii = row.filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(new Uint8Array(row.data), {
    status: 200,
    headers: {
      "Content-Type": row.contentType,
      "Content-Length": String(row.sizeBytes),
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.filename)}`,
      // nosniff, no-store and a CSP that runs nothing are set on every API answer (lib/api/security-headers.ts).
      "X-Content-Type-Options": "nosniff",
      "X-Checksum-Sha256": row.sha256,
    },
  });
}
