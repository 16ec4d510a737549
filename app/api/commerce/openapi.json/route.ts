import { withPublic } from "@/lib/api/with-public";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { publicBaseUrl } from "@/lib/config";

/**
 * The invoice API's OpenAPI 3.1 document, generated from the schemas the API validates with. No key
 * needed. Not cached, like every API answer (runLogged): it is built in about a millisecond.
 */
export const GET = withPublic(async () => Response.json(buildOpenApiDocument({ baseUrl: publicBaseUrl() })));
