import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { withPublic } from "@/lib/api/with-public";
import { publicBaseUrl } from "@/lib/config";
import { describeRegistry, type ProviderDescription } from "@/lib/providers";

/** A provider as a JSON:API resource: `type` "provider", its slug as `id`, everything else as attributes. */
function toProviderResource({ slug, ...attributes }: ProviderDescription) {
  return { type: "provider", id: slug, attributes };
}

/** The provider registry itself, public and free of secrets: forms and docs can be built from it. */
export const GET = withPublic(
  async () => {
    const { providers } = describeRegistry();
    return jsonApi({ data: providers.map(toProviderResource), links: { self: `${publicBaseUrl()}/api/providers` }, meta: { count: providers.length } });
  },
  { jsonApi: { query: [] } },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
