import { readEnvelope } from "@/lib/api/envelope";
import { routingOrderAttributesSchema } from "@/lib/api/management-schemas";
import { ApiError, ApiValidationError } from "@/lib/api/errors";
import { readJsonBody } from "@/lib/api/request";
import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiKeyActor } from "@/lib/connections/scope";
import type { Db } from "@/lib/db/client";
import { problemsFromZod } from "@/lib/problems";
import { getRoutingOrder, saveRoutingOrder } from "@/lib/routing/orders";
import { toAttributeProblems, toRoutingOrderResource } from "@/lib/routing/resource";
import { parseRoutingOrderId } from "@/lib/routing/schemas";

type Params = { id: string };

function notFound(id: string): ApiError {
  return new ApiError(404, "not_found", "Not found", `No routing order ${id}: none of your connections offers that service in that mode`);
}

function decoded(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

/** The order named by `service:mode` (the colon may come percent-encoded), if a connection offers it. */
async function findOrder(db: Db, merchantId: string, id: string) {
  const scope = parseRoutingOrderId(decoded(id));
  const order = scope && (await getRoutingOrder(db, merchantId, scope.service, scope.mode));
  if (!order) throw notFound(id);
  return order;
}

export const GET = withApiKey<Params>(async ({ params, merchant, db }) => {
  return jsonApi({ data: toRoutingOrderResource(await findOrder(db, merchant.id, params.id)) });
});

/**
 * Saves the routing: `connection_ids` (the default rule, first to last; connections left out
 * follow, oldest first) and/or `rules` (the rules before it). The order is checked before the
 * body is read, like a connection's PATCH.
 */
export const PATCH = withApiKey<Params>(async ({ request, params, merchant, keyId, db }) => {
  const order = await findOrder(db, merchant.id, params.id);
  const { attributes, data } = readEnvelope(await readJsonBody(request), "routing-order");
  if (data.id !== undefined && data.id !== order.id) {
    throw new ApiError(409, "id_mismatch", "Id does not match", `data.id must be "${order.id}", the routing order of this URL`, "/data/id");
  }
  const parsed = routingOrderAttributesSchema.safeParse(attributes);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues, { input: attributes }));
  const saved = await saveRoutingOrder(db, { merchantId: merchant.id, actor: apiKeyActor(keyId) }, {
    service: order.service,
    mode: order.mode,
    connectionIds: parsed.data.connection_ids,
    rules: parsed.data.rules,
  });
  if (!saved.ok) throw new ApiValidationError(toAttributeProblems(saved.problems));
  return jsonApi({ data: toRoutingOrderResource(saved.value) });
});

const other = otherMethods<Params>(["GET", "PATCH"]);
export const POST = other.POST;
export const PUT = other.PUT;
export const DELETE = other.DELETE;
export const OPTIONS = other.OPTIONS;
