import "server-only";
import { z } from "zod";
import { ApiError, ApiValidationError } from "@/lib/api/errors";
import { jsonApi } from "@/lib/api/responses";
import { publicBaseUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { decodePaymentMethodCursor, findPaymentMethod, listPaymentMethods } from "@/lib/payment-methods/store";
import { detachPaymentMethod } from "@/lib/processing/saved-cards";
import { problem, problemsFromZod, type Problem } from "@/lib/problems";
import type { Mode } from "@/lib/providers";
import { PAYMENT_METHODS_PATH, toPaymentMethodResource } from "./payment-method-resource";

/** The list's query parameters (any other answers 400). */
export const PAYMENT_METHOD_LIST_PARAMETERS = ["filter[customer_reference]", "filter[mode]", "page[size]", "page[after]"];

const listQuerySchema = z.object({
  "filter[customer_reference]": z.string().min(1).max(255).optional(),
  "filter[mode]": z.enum(["test", "live"], { error: 'filter[mode] must be "test" or "live"' }).optional(),
  "page[size]": z.coerce.number({ error: "page[size] must be a whole number from 1 to 100" }).int().min(1).max(100).default(25),
  "page[after]": z.string().max(512).optional(),
});

const notFound = (id: string) => new ApiError(404, "not_found", "Not found", `No payment method ${id} exists for this merchant in this mode`);

/** The mode a request reads: the key's own (a key sees only its mode), else filter[mode], else test. */
function modeOf(keyMode: Mode | undefined, asked: Mode | undefined): Mode | Problem {
  if (keyMode && asked && asked !== keyMode) return problem("key_mode_mismatch", `A ${keyMode} key lists ${keyMode} payment methods only.`, ["filter[mode]"]);
  return keyMode ?? asked ?? "test";
}

/** GET /api/commerce/payment-methods: newest first, keyset pages (links.next), optionally one customer's. */
export async function paymentMethodListResponse(db: Db, merchantId: string, request: Request, keyMode?: Mode): Promise<Response> {
  const url = new URL(request.url);
  const parsed = listQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues), { status: 400, source: "parameter" });
  const query = parsed.data;
  const cursor = query["page[after]"] === undefined ? undefined : decodePaymentMethodCursor(query["page[after]"]);
  if (query["page[after]"] !== undefined && !cursor) {
    throw new ApiValidationError([problem("invalid", "page[after] must be the cursor of a links.next", ["page[after]"])], { status: 400, source: "parameter" });
  }
  const mode = modeOf(keyMode, query["filter[mode]"]);
  if (typeof mode !== "string") throw new ApiValidationError([mode], { status: 400, source: "parameter" });
  const page = await listPaymentMethods(db, merchantId, {
    mode,
    customerReference: query["filter[customer_reference]"],
    cursor,
    pageSize: query["page[size]"],
  });
  const baseUrl = publicBaseUrl();
  const link = (params: URLSearchParams) => {
    const target = new URL(`${baseUrl}${PAYMENT_METHODS_PATH}`);
    target.search = params.toString();
    return target.href;
  };
  let next: string | null = null;
  if (page.nextCursor) {
    const params = new URLSearchParams(url.searchParams);
    params.set("page[after]", page.nextCursor);
    next = link(params);
  }
  return jsonApi({
    data: page.methods.map((view) => toPaymentMethodResource(view, baseUrl)),
    links: { self: link(url.searchParams), next },
    meta: { page_size: query["page[size]"] },
  });
}

/** GET /api/commerce/payment-methods/{id}: another merchant's, or the other mode's than the key's, is 404 like an unknown id. */
export async function paymentMethodResponse(db: Db, merchantId: string, id: string, keyMode?: Mode): Promise<Response> {
  const view = await findPaymentMethod(db, merchantId, keyMode ?? "test", id);
  if (!view) throw notFound(id);
  return jsonApi({ data: toPaymentMethodResource(view, publicBaseUrl()) });
}

/** DELETE /api/commerce/payment-methods/{id}: 204 (again 204 once detached); the provider is told where it can be. */
export async function detachPaymentMethodResponse(db: Db, merchantId: string, id: string, keyMode?: Mode): Promise<Response> {
  const result = await detachPaymentMethod(db, merchantId, keyMode ?? "test", id);
  if (result.kind === "not_found") throw notFound(id);
  return new Response(null, { status: 204 });
}
