import "server-only";
import { createHash } from "node:crypto";
import { compressBody, pickEncoding } from "@/lib/http/content-encoding";
import { cardInput } from "@/lib/pay/card-checks";
import { hostedPaymentScript } from "./browser";
import type { PageAssets } from "./render";
import { buildHostedPageStylesheet } from "./stylesheet";

/**
 * The hosted page's two files, served from `/pay/assets/` under names that carry a hash of their
 * content, so a browser may keep them for a year and a new release never meets an old copy.
 *
 * The script is the source text of two self-contained functions (browser.ts and card-checks.ts's
 * `cardInput`), as this build compiled them: the checks the browser runs are the server's own.
 */
export type Asset = { name: string; body: string; contentType: string };

const SCRIPT_BODY = `"use strict";(${hostedPaymentScript.toString()})((${cardInput.toString()})());\n`;

/**
 * Every asset named so far in this process, on globalThis: server.ts (run by tsx) and the route
 * modules Next compiled are two copies of this module in one process, and their compilers give
 * the script different source text, so different names. The page Next renders links its own
 * copy's names; server.ts's compressed path finds them here.
 */
const globalForAssets = globalThis as unknown as { __hostedPageAssets?: Map<string, Asset> };
const published = (globalForAssets.__hostedPageAssets ??= new Map<string, Asset>());

function named(stem: string, extension: string, body: string, contentType: string): Asset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const asset = { name: `${stem}-${hash}.${extension}`, body, contentType };
  published.set(asset.name, asset);
  return asset;
}

const SCRIPT = named("pay", "js", SCRIPT_BODY, "text/javascript; charset=utf-8");
let stylesheet: Promise<Asset> | undefined;

async function stylesheetAsset(): Promise<Asset> {
  stylesheet ??= buildHostedPageStylesheet()
    .then((css) => named("pay", "css", css, "text/css; charset=utf-8"))
    .catch((error: unknown) => {
      stylesheet = undefined;
      throw error;
    });
  return stylesheet;
}

const ASSET_PREFIX = "/pay/assets/";

export async function pageAssets(nonce: string): Promise<PageAssets> {
  const css = await stylesheetAsset();
  return { stylesheet: `${ASSET_PREFIX}${css.name}`, script: `${ASSET_PREFIX}${SCRIPT.name}`, nonce };
}

/** The asset of that name, or undefined: only this build's files are served. */
export async function findAsset(name: string): Promise<Asset | undefined> {
  await stylesheetAsset();
  return published.get(name);
}

const encodedBodies = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/**
 * GET /pay/assets/{file}: the hosted page's stylesheet or script, kept a year (the name changes
 * with the content). `compress`: brotli or gzip as the browser accepts, compressed once per
 * process; only where the answer is written with its Content-Encoding (server.ts's path,
 * server/serve-pay-assets.ts). Next drops a route handler's, so the route module answers the file
 * as it is (`next dev`).
 */
export async function payAssetResponse(file: string, acceptEncoding: string | null, compress: boolean): Promise<Response> {
  const asset = await findAsset(file);
  if (!asset) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const encoding = compress ? pickEncoding(acceptEncoding) : "identity";
  let body: Uint8Array<ArrayBuffer> = new TextEncoder().encode(asset.body);
  if (encoding !== "identity") {
    const key = `${asset.name}:${encoding}`;
    let encoded = encodedBodies.get(key);
    if (!encoded) {
      encoded = compressBody(body, encoding);
      encoded.catch(() => encodedBodies.delete(key));
      encodedBodies.set(key, encoded);
    }
    body = await encoded;
  }
  return new Response(body, {
    headers: {
      "Content-Type": asset.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Length": String(body.byteLength),
      ...(compress ? { Vary: "Accept-Encoding" } : {}),
      ...(encoding === "identity" ? {} : { "Content-Encoding": encoding }),
    },
  });
}
