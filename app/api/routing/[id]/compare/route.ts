import { ApiError, ApiValidationError } from "@/lib/api/errors";
import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { findRoutingOrder, versionNotFound, versionParameter } from "@/lib/api/routing-lookup";
import { withApiKey } from "@/lib/api/with-api-key";
import { type Problem } from "@/lib/problems";
import { toRoutingComparisonResource } from "@/lib/api/routing-resource";
import { compareRoutingVersions } from "@/lib/routing/versions";

type Params = { id: string };

/**
 * What changed from version `from` to version `to` of a routing order, as sentences. `to` defaults
 * to the current version, `from` to the one before `to`.
 */
export const GET = withApiKey<Params>(
  async ({ request, params, merchant, db, keyMode }) => {
    const order = await findRoutingOrder(db, merchant.id, params.id, keyMode);
    const search = new URL(request.url).searchParams;
    const problems: Problem[] = [];
    const from = versionParameter(search, "from", problems);
    const to = versionParameter(search, "to", problems);
    if (problems.length > 0) throw new ApiValidationError(problems, { status: 400, source: "parameter" });
    // A routing never saved has no versions: nothing to compare, whatever was asked.
    if (order.version === 0)
      throw new ApiError(404, "not_found", "Not found", `${order.service} (${order.mode}) has no versions yet: its routing was never saved`);
    const newer = to ?? order.version;
    const older = from ?? Math.max(newer - 1, 1);
    const compared = await compareRoutingVersions(db, merchant.id, order, older, newer);
    if (!compared.ok) throw versionNotFound(compared.problems) ?? new ApiValidationError(compared.problems, { status: 400, source: "parameter" });
    return jsonApi({ data: toRoutingComparisonResource(order, compared.value) });
  },
  { query: ["from", "to"] },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>(["GET"]);
