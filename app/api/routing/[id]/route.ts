import { readEnvelope } from "@/lib/api/envelope";
import { routingOrderAttributesSchema } from "@/lib/api/management-schemas";
import { ApiError, ApiValidationError } from "@/lib/api/errors";
import { readJsonBody } from "@/lib/api/request";
import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { findRoutingOrder } from "@/lib/api/routing-lookup";
import { apiKeyActor } from "@/lib/connections/scope";
import { problemsFromZod } from "@/lib/problems";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { toAttributeProblems, toRoutingOrderResource } from "@/lib/api/routing-resource";

type Params = { id: string };

export const GET = withApiKey<Params>(async ({ params, merchant, db, keyMode }) => {
  return jsonApi({ data: toRoutingOrderResource(await findRoutingOrder(db, merchant.id, params.id, keyMode)) });
});

/**
 * Saves the routing: `connection_ids` (the default rule, first to last; connections left out
 * follow, oldest first) and/or `rules` (the rules before it). The order is checked before the
 * body is read, like a connection's PATCH.
 */
export const PATCH = withApiKey<Params>(async ({ request, params, merchant, keyId, db, keyMode }) => {
  const order = await findRoutingOrder(db, merchant.id, params.id, keyMode);
  const { attributes, data } = readEnvelope(await readJsonBody(request), "routing-order");
  if (data.id !== undefined && data.id !== order.id) {
    throw new ApiError(409, "id_mismatch", "Id does not match", `data.id must be "${order.id}", the routing order of this URL`, "/data/id");
  }
  const parsed = routingOrderAttributesSchema.safeParse(attributes);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues, { input: attributes }));
  const saved = await saveRoutingOrder(
    db,
    { merchantId: merchant.id, actor: apiKeyActor(keyId) },
    {
      service: order.service,
      mode: order.mode,
      connectionIds: parsed.data.connection_ids,
      rules: parsed.data.rules,
    },
  );
  if (!saved.ok) throw new ApiValidationError(toAttributeProblems(saved.problems));
  return jsonApi({ data: toRoutingOrderResource(saved.value) });
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods<Params>(["GET", "PATCH"]);
