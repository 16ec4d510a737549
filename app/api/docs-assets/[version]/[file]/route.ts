import { swaggerUiAssetHandler } from "../../swagger-ui-dist";

/**
 * GET /api/docs-assets/{version}/{file}: Swagger UI's files (see swaggerUiAssetHandler). Under
 * `npm start` server.ts answers this path itself, compressed (server/serve-docs-assets.ts); this
 * module is what Next calls otherwise (`next dev`), and Next would drop a Content-Encoding.
 */
export const GET = swaggerUiAssetHandler({ compress: false });
