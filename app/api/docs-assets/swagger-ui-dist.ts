import "server-only";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

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

const assets = new Map<SwaggerUiFile, Promise<SwaggerUiAsset>>();

/**
 * The file, read once per process and kept in memory (1.9 MB for both). Compression is Next's (its
 * server gzips compressible answers; a route handler's own Content-Encoding is dropped), and with
 * immutable caching a browser asks for each file at most once per version.
 */
export function readSwaggerUiAsset(file: SwaggerUiFile): Promise<SwaggerUiAsset> {
  let asset = assets.get(file);
  if (!asset) {
    asset = readFile(path.join(packageDir(), file)).then((body) => ({ body, contentType: SWAGGER_UI_FILES[file] }));
    asset.catch(() => assets.delete(file));
    assets.set(file, asset);
  }
  return asset;
}
