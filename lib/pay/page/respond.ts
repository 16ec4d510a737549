import "server-only";
import { logger } from "@/lib/logger";
import { NONCE_HEADER } from "@/proxy";
import { pageAssets } from "./assets";
import { renderFailurePage, renderNotFoundPage } from "./render";
import type { PageAssets } from "./render";

/** The hosted page's HTML answers: never cached (the page shows where a payment stands), never indexed. */
export function htmlResponse(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" },
  });
}

/** The CSP nonce proxy.ts gave this request (the page's one script carries it). */
export function nonceOf(request: Request): string {
  return request.headers.get(NONCE_HEADER) ?? "";
}

/**
 * Renders a page of the hosted payment flow; a failure on our side becomes a plain page that says
 * so and gives the request id to quote, never a stack or an empty answer.
 */
export async function hostedPage(request: Request, requestId: string, invoiceId: string, render: (assets: PageAssets) => Promise<Response>): Promise<Response> {
  const assets = await pageAssets(nonceOf(request));
  try {
    return await render(assets);
  } catch (error) {
    logger.error("hosted page failed", { invoiceId, requestId, error });
    return htmlResponse(renderFailurePage(assets, requestId, invoiceId), 500);
  }
}

export function notFoundPage(assets: PageAssets): Response {
  return htmlResponse(renderNotFoundPage(assets), 404);
}
