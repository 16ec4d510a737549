import "server-only";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { singleErrorResponse } from "@/lib/api/errors";
import type { RouteHandler } from "@/lib/api/run-logged";
import { withPublic } from "@/lib/api/with-public";
import { compressBody, pickEncoding, type AssetEncoding } from "@/lib/http/content-encoding";

/**
 * The API reference's viewer: Swagger UI's prebuilt bundle and stylesheet, served from this origin
 * (no CDN) under a URL keyed by the installed package version, so they can be cached for good.
 * Only the files named here are ever read; nothing in a request becomes a path.
 */
export const SWAGGER_UI_FILES = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
} as const;

export type SwaggerUiFile = keyof typeof SWAGGER_UI_FILES;

export const isSwaggerUiFile = (name: string): name is SwaggerUiFile => Object.hasOwn(SWAGGER_UI_FILES, name);

/**
 * The package folder as Node resolves it from the project root, where `next dev`, `next start` and
 * server.ts all run; not from this module's own file, which after a build sits under .next/.
 */
function packageDir(): string {
  const fromRoot = createRequire(path.join(/*turbopackIgnore: true*/ process.cwd(), "package.json"));
  return path.dirname(fromRoot.resolve("swagger-ui-dist/package.json"));
}

type AssetParams = { version: string; file: string };

const IMMUTABLE = "public, max-age=31536000, immutable";

let version: Promise<string> | undefined;

/** The version of the files on disk, read from their own package.json (the key of every asset URL). */
export function swaggerUiVersion(): Promise<string> {
  version ??= readFile(path.join(packageDir(), "package.json"), "utf8").then((text) => {
    const parsed = JSON.parse(text) as { version?: unknown };
    if (typeof parsed.version !== "string" || !/^[0-9A-Za-z.+-]+$/.test(parsed.version)) throw new Error("swagger-ui-dist/package.json has no usable version");
    return parsed.version;
  });
  version.catch(() => (version = undefined));
  return version;
}

export async function swaggerUiAssetUrl(file: SwaggerUiFile): Promise<string> {
  return `/api/docs-assets/${await swaggerUiVersion()}/${file}`;
}

export type SwaggerUiAsset = { body: Uint8Array<ArrayBuffer>; contentType: string };

const files = new Map<SwaggerUiFile, Promise<Uint8Array<ArrayBuffer>>>();
const encoded = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

function readOnce(file: SwaggerUiFile): Promise<Uint8Array<ArrayBuffer>> {
  let body = files.get(file);
  if (!body) {
    body = readFile(path.join(packageDir(), file));
    body.catch(() => files.delete(file));
    files.set(file, body);
  }
  return body;
}

/**
 * The file in the encoding asked for, read and compressed once per process and kept in memory
 * (about 2.7 MB for both files in all three forms). With immutable caching a browser asks for
 * each file at most once per version.
 */
export function readSwaggerUiAsset(file: SwaggerUiFile, encoding: AssetEncoding = "identity"): Promise<SwaggerUiAsset> {
  const contentType = SWAGGER_UI_FILES[file];
  if (encoding === "identity") return readOnce(file).then((body) => ({ body, contentType }));
  const key = `${file}:${encoding}`;
  let body = encoded.get(key);
  if (!body) {
    body = readOnce(file).then((raw) => compressBody(raw, encoding));
    body.catch(() => encoded.delete(key));
    encoded.set(key, body);
  }
  return body.then((compressed) => ({ body: compressed, contentType }));
}

/**
 * GET /api/docs-assets/{version}/{file}: Swagger UI's bundle and stylesheet for the API reference
 * page. No session needed: these are the unchanged open-source files anyone can download, they
 * carry nothing of ours (the document they render, /api/commerce/openapi.json, is public too), and
 * a public answer may be kept by shared caches. Only the installed version is served, so an answer
 * is never cached under another version's URL.
 *
 * `compress`: answer brotli or gzip when the browser accepts it (the bundle is 1.7 MB as it is),
 * with Vary so caches keep one copy per encoding. Only where the answer is written with its
 * Content-Encoding: server.ts's path (server/serve-docs-assets.ts). Next drops a route handler's
 * Content-Encoding, so the route module Next calls (`next dev`) answers the file as it is.
 */
export function swaggerUiAssetHandler({ compress }: { compress: boolean }): RouteHandler<AssetParams> {
  const serve = withPublic<AssetParams>(async ({ request, params, requestId }) => {
    if (!isSwaggerUiFile(params.file) || params.version !== (await swaggerUiVersion())) {
      return singleErrorResponse(404, "not_found", "Not Found", "No such documentation asset.", requestId);
    }
    const encoding = compress ? pickEncoding(request.headers.get("accept-encoding")) : "identity";
    const asset = await readSwaggerUiAsset(params.file, encoding);
    return new Response(asset.body, {
      headers: {
        "Content-Type": asset.contentType,
        ...(compress ? { Vary: "Accept-Encoding", "Content-Length": String(asset.body.byteLength) } : {}),
        ...(encoding === "identity" ? {} : { "Content-Encoding": encoding }),
      },
    });
  });
  // The one answer under /api a cache may keep: runLogged gave it the API's no-store with its other
  // security headers, but a versioned open-source file is public and never changes under its URL,
  // and storing nothing would send the 1.7 MB bundle again on every visit of the API reference.
  return async (request, context) => {
    const response = await serve(request, context);
    if (response.ok) response.headers.set("Cache-Control", IMMUTABLE);
    return response;
  };
}
