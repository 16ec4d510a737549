import type http from "node:http";
import { swaggerUiAssetHandler } from "@/app/api/docs-assets/swagger-ui-dist";
import { sendWebResponse, toWebRequest } from "./node-bridge";

const DOCS_ASSET = /^\/api\/docs-assets\/([^/]+)\/([^/]+)$/;
const handler = swaggerUiAssetHandler({ compress: true });

/**
 * GET /api/docs-assets/{version}/{file} (Swagger UI's bundle and stylesheet) under `npm start`:
 * the same handler as the route module, compressing, and written here because Next drops a route
 * handler's Content-Encoding (and does not compress this answer itself), so the bundle's 1.7 MB
 * would go out as they are. Answers false for anything else, which then goes to Next.
 */
export async function serveDocsAsset(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, origin: string): Promise<boolean> {
  const match = req.method === "GET" ? DOCS_ASSET.exec(pathname) : null;
  if (!match) return false;
  // server.ts has already refused paths whose escapes do not decode.
  const params = { version: decodeURIComponent(match[1]!), file: decodeURIComponent(match[2]!) };
  await sendWebResponse(await handler(await toWebRequest(req, origin), { params: Promise.resolve(params) }), res);
  return true;
}
