import { errorResponse } from "@/lib/api/errors";
import { withPublic } from "@/lib/api/with-api-key";
import { isSwaggerUiFile, readSwaggerUiAsset, swaggerUiVersion } from "../../swagger-ui-dist";

/**
 * GET /api/docs-assets/{version}/{file}: Swagger UI's bundle and stylesheet for the API reference
 * page. No session needed: these are the unchanged open-source files anyone can download, they
 * carry nothing of ours (the document they render, /api/commerce/openapi.json, is public too), and
 * a public answer may be kept by shared caches. Only the installed version is served, so an answer
 * is never cached under another version's URL.
 */
export const GET = withPublic<{ version: string; file: string }>(async ({ params, requestId }) => {
  if (!isSwaggerUiFile(params.file) || params.version !== (await swaggerUiVersion())) {
    return errorResponse(404, [{ status: "404", code: "not_found", title: "Not Found", detail: "No such documentation asset." }], requestId);
  }
  const asset = await readSwaggerUiAsset(params.file);
  return new Response(asset.body, {
    headers: { "Content-Type": asset.contentType, "Cache-Control": "public, max-age=31536000, immutable" },
  });
});
