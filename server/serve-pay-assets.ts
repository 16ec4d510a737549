import type http from "node:http";
import { findAsset, payAssetResponse } from "@/lib/pay/page/assets";
import { sendWebResponse } from "./node-bridge";

const PAY_ASSET = /^\/pay\/assets\/([^/]+)$/;

/**
 * GET /pay/assets/{file} (the hosted page's stylesheet and script) under `npm start`, compressed:
 * written here because Next drops a route handler's Content-Encoding. Answers false for anything
 * else, which then goes to Next: also a name no copy of lib/pay/page/assets.ts in this process has
 * published yet (Next's own copy publishes its script's name when it first loads).
 */
export async function servePayAsset(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<boolean> {
  const match = req.method === "GET" ? PAY_ASSET.exec(pathname) : null;
  if (!match) return false;
  // server.ts has already refused paths whose escapes do not decode.
  const name = decodeURIComponent(match[1]!);
  if (!(await findAsset(name))) return false;
  const accept = req.headers["accept-encoding"];
  await sendWebResponse(await payAssetResponse(name, typeof accept === "string" ? accept : null, true), res);
  return true;
}
