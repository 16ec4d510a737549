import "server-only";
import { ApiError, ApiValidationError, testModeOnlyError } from "@/lib/api/errors";
import { toInvoiceResource } from "@/lib/api/invoice-resource";
import { jsonApi } from "@/lib/api/responses";
import type { Db } from "@/lib/db/client";
import { captureRequestSchema, voidRequestSchema } from "@/lib/invoices/contract/capture-schemas";
import { captureInvoice, voidInvoice, type AuthorizationResult } from "@/lib/processing/authorization";
import { problemsFromZod, testModeOnly } from "@/lib/problems";
import type { Mode } from "@/lib/providers";

/** Maps lib/processing/authorization.ts results to JSON:API answers: the invoice as it is after the capture or void. */

export type AuthorizationCallerInput = { testOnly: boolean; keyMode?: Mode; idempotencyKey?: string };

function answer(result: AuthorizationResult, id: string, baseUrl: string, verb: "capture" | "void"): Response {
  switch (result.kind) {
    case "done":
      // 202 while the provider's answer is not known yet: status requests settle it.
      return jsonApi({ data: toInvoiceResource(result.invoice, { baseUrl }) }, { status: result.pending ? 202 : 200 });
    case "not_found":
      throw new ApiError(404, "not_found", "Not found", `No payment invoice ${id} exists for this merchant`);
    case "test_only":
      throw testModeOnlyError(testModeOnly(verb, "payment"));
    case "invalid":
      throw new ApiValidationError(result.problems, { base: "" });
    case "refused":
      throw new ApiError(result.status, result.code, verb === "capture" ? "Not captured" : "Not voided", result.detail);
  }
}

export async function captureResponse(
  db: Db,
  merchantId: string,
  id: string,
  body: unknown,
  baseUrl: string,
  caller: AuthorizationCallerInput,
): Promise<Response> {
  const parsed = captureRequestSchema.safeParse(body);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues, { input: body, codes: "closed" }), { base: "" });
  const amount = parsed.data.data.attributes?.amount;
  const result = await captureInvoice(db, merchantId, id, amount === undefined ? {} : { amount }, {
    testOnly: caller.testOnly,
    mode: caller.keyMode,
    idempotencyKey: caller.idempotencyKey,
  });
  return answer(result, id, baseUrl, "capture");
}

export async function voidResponse(
  db: Db,
  merchantId: string,
  id: string,
  body: unknown,
  baseUrl: string,
  caller: AuthorizationCallerInput,
): Promise<Response> {
  if (body !== undefined) {
    const parsed = voidRequestSchema.safeParse(body);
    if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues, { input: body, codes: "closed" }), { base: "" });
  }
  const result = await voidInvoice(db, merchantId, id, { testOnly: caller.testOnly, mode: caller.keyMode, idempotencyKey: caller.idempotencyKey });
  return answer(result, id, baseUrl, "void");
}
