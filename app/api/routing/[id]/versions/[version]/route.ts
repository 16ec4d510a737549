import { ApiError } from "@/lib/api/errors";
import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { findRoutingOrder, versionNotFound } from "@/lib/api/routing-lookup";
import { withApiKey } from "@/lib/api/with-api-key";
import { toRoutingVersionResource } from "@/lib/api/routing-resource";
import { VERSION_TEXT } from "@/lib/routing/schemas";
import { getRoutingVersion } from "@/lib/routing/versions";

type Params = { id: string; version: string };

/** One version of a routing order: its rules and order as saved, who saved it and when. */
export const GET = withApiKey<Params>(async ({ params, merchant, db, keyMode }) => {
  const order = await findRoutingOrder(db, merchant.id, params.id, keyMode);
  if (!VERSION_TEXT.test(params.version)) {
    throw new ApiError(404, "not_found", "Not found", `No version ${params.version.slice(0, 40)} of ${order.id}: versions are numbered 1 to ${order.version}`);
  }
  const found = await getRoutingVersion(db, merchant.id, order, Number(params.version));
  if (!found.ok) throw versionNotFound(found.problems) ?? new ApiError(404, "not_found", "Not found", "No such version");
  return jsonApi({ data: toRoutingVersionResource(order, found.value) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>(["GET"]);
