import { readEnvelope } from "@/lib/api/envelope";
import { ApiValidationError } from "@/lib/api/errors";
import { routingRollbackAttributesSchema } from "@/lib/api/management-schemas";
import { otherMethods } from "@/lib/api/methods";
import { readJsonBody } from "@/lib/api/request";
import { jsonApi } from "@/lib/api/responses";
import { findRoutingOrder, versionNotFound } from "@/lib/api/routing-lookup";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiKeyActor } from "@/lib/connections/scope";
import { problemsFromZod } from "@/lib/problems";
import { rollbackMeta, toRoutingOrderResource } from "@/lib/api/routing-resource";
import { rollbackRouting } from "@/lib/routing/versions";

type Params = { id: string };

/**
 * Rolls the routing order back to an earlier version: a new version with that version's rules and
 * order (checked as a save is), recorded in the audit log as routing.rolled_back. A version routing
 * uses already changes nothing (meta.changed false). Read-only keys are refused (403).
 */
export const POST = withApiKey<Params>(async ({ request, params, merchant, keyId, db, keyMode }) => {
  const order = await findRoutingOrder(db, merchant.id, params.id, keyMode);
  const { attributes } = readEnvelope(await readJsonBody(request), "routing-rollback");
  const parsed = routingRollbackAttributesSchema.safeParse(attributes);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues, { input: attributes }));
  const rolled = await rollbackRouting(db, { merchantId: merchant.id, actor: apiKeyActor(keyId) }, order, parsed.data.version);
  if (!rolled.ok) throw versionNotFound(rolled.problems) ?? new ApiValidationError(rolled.problems);
  return jsonApi({ data: toRoutingOrderResource(rolled.value.order), meta: rollbackMeta(rolled.value) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>(["POST"]);
