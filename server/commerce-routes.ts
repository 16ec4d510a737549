import * as unknownPath from "@/app/api/commerce/[[...rest]]/route";
import * as openapi from "@/app/api/commerce/openapi.json/route";
import * as payments from "@/app/api/commerce/payment-invoices/route";
import * as payment from "@/app/api/commerce/payment-invoices/[id]/route";
import * as payouts from "@/app/api/commerce/payout-invoices/route";
import * as payout from "@/app/api/commerce/payout-invoices/[id]/route";
import * as paymentAttempts from "@/app/api/commerce/payment-invoices/[id]/attempts/route";
import * as payoutAttempts from "@/app/api/commerce/payout-invoices/[id]/attempts/route";
import * as payoutProcess from "@/app/api/commerce/payout-invoices/[id]/process/route";
import * as payoutCancel from "@/app/api/commerce/payout-invoices/[id]/cancel/route";
import * as paymentRefunds from "@/app/api/commerce/payment-invoices/[id]/refunds/route";
import * as refund from "@/app/api/commerce/refunds/[id]/route";
import * as paymentCapture from "@/app/api/commerce/payment-invoices/[id]/capture/route";
import * as paymentVoid from "@/app/api/commerce/payment-invoices/[id]/void/route";
import * as paymentMethods from "@/app/api/commerce/payment-methods/route";
import * as paymentMethod from "@/app/api/commerce/payment-methods/[id]/route";
import * as disputeList from "@/app/api/commerce/disputes/route";
import * as dispute from "@/app/api/commerce/disputes/[id]/route";
import * as disputeEvidence from "@/app/api/commerce/disputes/[id]/evidence/route";
import * as disputeSubmit from "@/app/api/commerce/disputes/[id]/submit/route";
import * as disputeAccept from "@/app/api/commerce/disputes/[id]/accept/route";
import * as fileUpload from "@/app/api/commerce/files/route";
import * as file from "@/app/api/commerce/files/[id]/route";
import { MAX_UPLOAD_BODY_BYTES } from "@/lib/api/request";
import { listMethods, methodNotAllowed, methodsOf } from "@/lib/api/methods";
import { routeSeries, type RouteSeries } from "@/lib/metrics/requests";
import { routeTemplate } from "@/lib/metrics/routes";

type Params = Record<string, string | string[]>;
type Handler = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;
export type RouteModule = Partial<Record<string, Handler>>;

/**
 * The same route modules Next serves, matched here without Next: one table, no second copy of any
 * handler. Each entry names its route the way its folder under app/ does, so
 * tests/integration/commerce-routes.test.ts can hold the table to the files. Like Next, specific
 * routes come before the catch-all.
 */
export const COMMERCE_ROUTES: { route: string; module: RouteModule; readsBody?: true; maxBodyBytes?: number }[] = [
  { route: "/api/commerce/payment-invoices", module: payments as unknown as RouteModule, readsBody: true },
  { route: "/api/commerce/payment-invoices/[id]", module: payment as unknown as RouteModule },
  { route: "/api/commerce/payout-invoices", module: payouts as unknown as RouteModule, readsBody: true },
  { route: "/api/commerce/payout-invoices/[id]", module: payout as unknown as RouteModule },
  { route: "/api/commerce/payment-invoices/[id]/attempts", module: paymentAttempts as unknown as RouteModule },
  { route: "/api/commerce/payout-invoices/[id]/attempts", module: payoutAttempts as unknown as RouteModule },
  { route: "/api/commerce/payout-invoices/[id]/process", module: payoutProcess as unknown as RouteModule },
  { route: "/api/commerce/payout-invoices/[id]/cancel", module: payoutCancel as unknown as RouteModule },
  { route: "/api/commerce/payment-invoices/[id]/refunds", module: paymentRefunds as unknown as RouteModule, readsBody: true },
  { route: "/api/commerce/refunds/[id]", module: refund as unknown as RouteModule },
  { route: "/api/commerce/payment-invoices/[id]/capture", module: paymentCapture as unknown as RouteModule, readsBody: true },
  { route: "/api/commerce/payment-invoices/[id]/void", module: paymentVoid as unknown as RouteModule, readsBody: true },
  { route: "/api/commerce/payment-methods", module: paymentMethods as unknown as RouteModule },
  { route: "/api/commerce/payment-methods/[id]", module: paymentMethod as unknown as RouteModule },
  { route: "/api/commerce/disputes", module: disputeList as unknown as RouteModule },
  { route: "/api/commerce/disputes/[id]", module: dispute as unknown as RouteModule },
  { route: "/api/commerce/disputes/[id]/evidence", module: disputeEvidence as unknown as RouteModule, readsBody: true },
  { route: "/api/commerce/disputes/[id]/submit", module: disputeSubmit as unknown as RouteModule },
  { route: "/api/commerce/disputes/[id]/accept", module: disputeAccept as unknown as RouteModule },
  // Uploads: the one route whose body may pass 64 KiB, up to a 5 MB file and its form.
  { route: "/api/commerce/files", module: fileUpload as unknown as RouteModule, readsBody: true, maxBodyBytes: MAX_UPLOAD_BODY_BYTES },
  { route: "/api/commerce/files/[id]", module: file as unknown as RouteModule },
  { route: "/api/commerce/openapi.json", module: openapi as unknown as RouteModule },
  { route: "/api/commerce/[[...rest]]", module: unknownPath as unknown as RouteModule },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Next's folder syntax: `[id]` is one segment, `[...rest]` one or more, `[[...rest]]` none or more. */
function routePattern(route: string): RegExp {
  let source = "";
  for (const segment of route.split("/").slice(1)) {
    const optionalCatchAll = /^\[\[\.\.\.(\w+)\]\]$/.exec(segment);
    const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
    const dynamic = /^\[(\w+)\]$/.exec(segment);
    if (optionalCatchAll) source += `(?:/(?<${optionalCatchAll[1]}>.+?))?`;
    else if (catchAll) source += `/(?<${catchAll[1]}>.+?)`;
    else if (dynamic) source += `/(?<${dynamic[1]}>[^/]+)`;
    else source += `/${escapeRegExp(segment)}`;
  }
  return new RegExp(`^${source}/?$`);
}

/** A method the module does not serve gets lib/api/methods.ts's answers, as from Next: 405 with Allow, or OPTIONS' 204. */
const COMPILED = COMMERCE_ROUTES.map(({ route, module, readsBody, maxBodyBytes }) => ({
  pattern: routePattern(route),
  catchAll: new Set([...route.matchAll(/\[\.\.\.(\w+)\]/g)].map((m) => m[1]!)),
  module,
  readsBody: readsBody === true,
  maxBodyBytes,
  refuse: methodNotAllowed<Params>(methodsOf(module)),
  options: listMethods<Params>(methodsOf(module)),
  // Its request metrics' series, looked up once (the catch-all's 404s are the route `other`).
  series: routeSeries(routeTemplate(route)),
}));

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // A broken escape cannot name any invoice: the handler answers 404 for it.
    return value;
  }
}

/**
 * `body`: whether the handler reads the request's body (a create). Every other answer (a read, the
 * process endpoint, 405, OPTIONS, the catch-all's 404) is given whatever was sent, without reading
 * it: so a large body there gets the answer the document lists, not a 413.
 */
export type CommerceMatch = { handler: Handler; params: Params; body: boolean; series: RouteSeries; maxBodyBytes?: number };

/** Undefined only outside /api/commerce; a known path with another method gets a JSON:API 405. */
export function matchCommerceRoute(method: string, pathname: string): CommerceMatch | undefined {
  for (const route of COMPILED) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const own = route.module[method];
    // Like Next: HEAD is answered by GET.
    const handler = own ?? (method === "HEAD" ? route.module.GET : undefined) ?? (method === "OPTIONS" ? route.options : route.refuse);
    const params: Params = {};
    for (const [name, value] of Object.entries(match.groups ?? {})) {
      if (value === undefined) continue;
      params[name] = route.catchAll.has(name) ? value.split("/").map(decode) : decode(value);
    }
    return {
      handler,
      params,
      body: route.readsBody && own !== undefined,
      series: route.series,
      ...(route.maxBodyBytes === undefined ? {} : { maxBodyBytes: route.maxBodyBytes }),
    };
  }
  return undefined;
}
