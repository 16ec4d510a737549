import { withPublic } from "@/lib/api/with-api-key";
import { jsonApi } from "@/lib/api/responses";
import { describeRegistry } from "@/lib/providers";

/** The provider registry itself, public and free of secrets: forms and docs can be built from it. */
export const GET = withPublic(async () => jsonApi({ data: describeRegistry() }));
