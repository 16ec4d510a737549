import { ApiValidationError } from "@/lib/api/errors";
import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { findRoutingOrder, versionParameter } from "@/lib/api/routing-lookup";
import { withApiKey } from "@/lib/api/with-api-key";
import { publicBaseUrl } from "@/lib/config";
import { problem, type Problem } from "@/lib/problems";
import { toRoutingVersionResource } from "@/lib/api/routing-resource";
import { listRoutingVersions, VERSIONS_PAGE_MAX } from "@/lib/routing/versions";

type Params = { id: string };

/** The versions of one routing order, newest first: `page[size]` (1 to 100, default 20) at a time, older ones by `page[before]`. */
export const GET = withApiKey<Params>(
  async ({ request, params, merchant, db, keyMode }) => {
    const order = await findRoutingOrder(db, merchant.id, params.id, keyMode);
    const search = new URL(request.url).searchParams;
    const problems: Problem[] = [];
    const size = versionParameter(search, "page[size]", problems, "a page size");
    if (size !== undefined && size > VERSIONS_PAGE_MAX)
      problems.push(problem("invalid_parameter", `page[size] must be at most ${VERSIONS_PAGE_MAX}`, ["page[size]"]));
    const before = versionParameter(search, "page[before]", problems);
    if (problems.length > 0) throw new ApiValidationError(problems, { status: 400, source: "parameter" });
    const page = await listRoutingVersions(db, merchant.id, order, { size, before });
    // Brackets percent-encoded: a link is a URI.
    const link = (entries: [string, number | undefined][]) => {
      const url = new URL(`${publicBaseUrl()}/api/routing/${order.id}/versions`);
      for (const [name, value] of entries) if (value !== undefined) url.searchParams.set(name, String(value));
      return url.toString();
    };
    return jsonApi({
      data: page.versions.map((version) => toRoutingVersionResource(order, version)),
      links: {
        self: link([
          ["page[size]", size],
          ["page[before]", before],
        ]),
        next:
          page.before === undefined
            ? null
            : link([
                ["page[size]", size],
                ["page[before]", page.before],
              ]),
      },
      meta: { count: page.versions.length, current: page.current },
    });
  },
  { query: ["page[size]", "page[before]"] },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>(["GET"]);
