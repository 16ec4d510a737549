import "server-only";
import { createHash } from "node:crypto";
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

function named(stem: string, extension: string, body: string, contentType: string): Asset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
  return { name: `${stem}-${hash}.${extension}`, body, contentType };
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

export const ASSET_PREFIX = "/pay/assets/";

export async function pageAssets(nonce: string): Promise<PageAssets> {
  const css = await stylesheetAsset();
  return { stylesheet: `${ASSET_PREFIX}${css.name}`, script: `${ASSET_PREFIX}${SCRIPT.name}`, nonce };
}

/** The asset of that name, or undefined: only the current build's two files are served. */
export async function findAsset(name: string): Promise<Asset | undefined> {
  if (name === SCRIPT.name) return SCRIPT;
  const css = await stylesheetAsset();
  return name === css.name ? css : undefined;
}
