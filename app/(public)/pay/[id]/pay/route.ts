import { problemsToFormErrors } from "@/lib/actions/result";
import { withPublic } from "@/lib/api/with-public";
import { clientAddressFromHeaders } from "@/lib/auth/client-address";
import { getDb } from "@/lib/db/client";
import { findHostedInvoice } from "@/lib/pay/hosted-invoice";
import { pageAssets } from "@/lib/pay/page/assets";
import { renderContinuePage, renderHostedPage, renderPayment } from "@/lib/pay/page/render";
import { htmlResponse, nonceOf, notFoundPage } from "@/lib/pay/page/respond";
import { GONE_CODE, payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { fail, problem } from "@/lib/problems";
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from "@/lib/text-safety";

export const dynamic = "force-dynamic";

/** A card form is a few hundred bytes; anything much larger is not one. */
const MAX_BODY = 8 * 1024;
const FIELDS = ["number", "expiry", "cvc", "holder"] as const;

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * A browser sends Origin with every POST: one from another site is refused (a form there cannot
 * pay here). This site's host is the one the browser used: X-Forwarded-Host behind a load balancer
 * (a page on another site cannot set it), else Host; the same rule as Next's server actions.
 */
function crossSite(request: Request): boolean {
  const origin = request.headers.get("origin");
  return origin !== null && !onThisSite(origin, request);
}

function onThisSite(url: string, request: Request): boolean {
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  try {
    return new URL(url).host === host;
  } catch {
    return false;
  }
}

/** The client's address as server.ts settled it (TRUST_PROXY_HOPS), for the risk rules; none when it is not known. */
function riskAddress(request: Request): string | null {
  const address = clientAddressFromHeaders(request.headers);
  return address === "local" ? null : address;
}

/** The four card fields and nothing else, as sent; the schema names what is missing or wrong. */
async function readCard(request: Request, form: boolean): Promise<Record<string, unknown> | undefined> {
  const text = await request.text();
  if (text.length > MAX_BODY) return undefined;
  let sent: unknown;
  if (form) sent = Object.fromEntries(new URLSearchParams(text));
  else {
    try {
      sent = JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  if (typeof sent !== "object" || sent === null || Array.isArray(sent)) return undefined;
  const card: Record<string, unknown> = {};
  for (const name of FIELDS) if (Object.hasOwn(sent, name)) card[name] = (sent as Record<string, unknown>)[name];
  return card;
}

/**
 * "Pay" on the public hosted page. No session: the invoice's unguessable id is the only key, and
 * the answer says nothing the page does not already show; the card number is never returned.
 * The page's script sends JSON and gets JSON back (with the payment part of the page rendered
 * anew); a browser without the script posts the form and gets the page, or is sent on to 3-D
 * Secure or back to the page. Rate-limited per address, and per invoice (lib/pay/pay-limit.ts).
 */
export const POST = withPublic<{ id: string }>(async ({ request, params }) => {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const form = type === "application/x-www-form-urlencoded";
  const isJson = type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
  if (!form && !isJson) return json({ ok: false, fieldErrors: {}, message: "Send the card form as JSON or as a form." }, 415);
  if (crossSite(request)) return json({ ok: false, fieldErrors: {}, message: "A payment can only be sent from its own page." }, 403);
  const card = await readCard(request, form);
  if (!card) return json({ ok: false, fieldErrors: {}, message: "The card form could not be read." }, 400);

  const db = await getDb();
  // Text PostgreSQL cannot store is the field's problem before any schema or query sees it.
  const unsafe = findUnsafeText(card);
  const outcome = unsafe
    ? fail([problem("invalid_character", UNSAFE_TEXT_MESSAGE, unsafe)])
    : await payHostedInvoice(db, params.id, card, { address: riskAddress(request) });
  const holder = typeof card.holder === "string" ? card.holder : "";

  if (!form) {
    if (!outcome.ok) {
      const gone = outcome.problems.some((entry) => entry.code === GONE_CODE);
      return json({ ok: false, ...problemsToFormErrors(outcome.problems) }, gone ? 404 : 200);
    }
    if (outcome.value.kind === "redirect") return json({ ok: true, kind: "redirect", url: outcome.value.url });
    const { invoice, refused } = outcome.value;
    // The invoice's public view (what the status poll answers too) and the page's payment part rendered anew.
    return json({ ok: true, kind: "result", invoice, ...(refused ? { refused } : {}), html: renderPayment(invoice, { errors: {}, alert: refused, holder }) });
  }

  // Without the script: the page itself answers, or the browser is sent on: by a 303 on this site,
  // by a link to another (the page's form-action 'self' would block a form's redirect there).
  if (outcome.ok) {
    const answer = outcome.value;
    if (answer.kind === "redirect") {
      if (onThisSite(answer.url, request)) return new Response(null, { status: 303, headers: { Location: answer.url } });
      return htmlResponse(renderContinuePage(await pageAssets(nonceOf(request)), answer.url));
    }
    if (!answer.refused) return new Response(null, { status: 303, headers: { Location: `/pay/${encodeURIComponent(params.id)}` } });
    return htmlResponse(renderHostedPage(answer.invoice, await pageAssets(nonceOf(request)), { errors: {}, alert: answer.refused, holder }));
  }
  const assets = await pageAssets(nonceOf(request));
  const invoice = await findHostedInvoice(db, params.id);
  if (!invoice) return notFoundPage(assets);
  const { fieldErrors, message } = problemsToFormErrors(outcome.problems);
  return htmlResponse(renderHostedPage(invoice, assets, { errors: fieldErrors, alert: message, holder }), 422);
});
