import { withPublic } from "@/lib/api/with-api-key";
import { buildOpenApiDocument } from "@/lib/invoices/contract";
import { baseUrlOf } from "@/lib/api/invoice-responses";

/** The invoice API's OpenAPI 3.1 document, generated from the schemas the API validates with. No key needed. */
export const GET = withPublic(async ({ request }) =>
  Response.json(buildOpenApiDocument({ baseUrl: baseUrlOf(request) }), {
    headers: { "Cache-Control": "public, max-age=300" },
  }),
);
