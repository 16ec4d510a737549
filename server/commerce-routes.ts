import * as openapi from "@/app/api/commerce/openapi.json/route";
import * as payments from "@/app/api/commerce/payment-invoices/route";
import * as payment from "@/app/api/commerce/payment-invoices/[id]/route";
import * as payouts from "@/app/api/commerce/payout-invoices/route";
import * as payout from "@/app/api/commerce/payout-invoices/[id]/route";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

/** The same route modules Next serves, matched here without Next: one table, no second copy of any handler. */
const ROUTES: { pattern: RegExp; module: RouteModule }[] = [
  { pattern: /^\/api\/commerce\/payment-invoices\/?$/, module: payments as unknown as RouteModule },
  { pattern: /^\/api\/commerce\/payment-invoices\/(?<id>[^/]+)\/?$/, module: payment as unknown as RouteModule },
  { pattern: /^\/api\/commerce\/payout-invoices\/?$/, module: payouts as unknown as RouteModule },
  { pattern: /^\/api\/commerce\/payout-invoices\/(?<id>[^/]+)\/?$/, module: payout as unknown as RouteModule },
  { pattern: /^\/api\/commerce\/openapi\.json$/, module: openapi as unknown as RouteModule },
];

export type CommerceMatch = { handler: Handler; params: Record<string, string> } | { methodNotAllowed: string[] } | undefined;

export function matchCommerceRoute(method: string, pathname: string): CommerceMatch {
  for (const route of ROUTES) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const handler = route.module[method];
    if (!handler) return { methodNotAllowed: Object.keys(route.module).filter((k) => /^[A-Z]+$/.test(k)) };
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(match.groups ?? {})) {
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        // A broken escape cannot name any invoice: the handler answers 404 for it.
        params[name] = value;
      }
    }
    return { handler, params };
  }
  return undefined;
}
