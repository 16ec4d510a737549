/**
 * Route labels: the route's template as its folder under app/ names it, written with braces
 * (`/api/commerce/payment-invoices/[id]` → `/api/commerce/payment-invoices/{id}`), never the path a
 * client sent (ids, tokens, e-mails in paths would make unbounded series of merchants' data).
 * Anything no route serves, and the API's catch-all 404s, is one label: `other`.
 */
export const OTHER_ROUTE = "other";

/** The folders that only answer 404 for any path below them: counted as `other`. */
const NOT_FOUND_ROUTES = new Set(["/api", "/api/[...rest]", "/api/commerce/[[...rest]]", "/_not-found", "/_global-error"]);

/** `[id]` → `{id}`, `[...path]` and `[[...path]]` → `{path...}`; route groups `(name)` dropped. */
export function routeTemplate(route: string): string {
  if (NOT_FOUND_ROUTES.has(route)) return OTHER_ROUTE;
  return (
    route
      .split("/")
      .filter((segment) => !/^\(.*\)$/.test(segment))
      .map((segment) => segment.replace(/^\[\[?\.\.\.(\w+)\]\]?$/, "{$1...}").replace(/^\[(\w+)\]$/, "{$1}"))
      .join("/") || "/"
  );
}

/** One route of Next's build (`.next/routes-manifest.json`: static and dynamic routes, in Next's order of precedence). */
export type ManifestRoute = { page: string; regex: string };

/**
 * The label of a path Next serves, from the build's routes in Next's order (static routes first,
 * then dynamic ones as Next sorts them). Next's own files (`/_next/…`) are one label.
 */
export function createRouteLabeler(routes: { staticRoutes?: ManifestRoute[]; dynamicRoutes?: ManifestRoute[] }): (pathname: string) => string {
  const exact = new Map<string, string>();
  for (const route of routes.staticRoutes ?? []) exact.set(route.page, routeTemplate(route.page));
  const dynamic = (routes.dynamicRoutes ?? []).map((route) => ({ pattern: new RegExp(route.regex), label: routeTemplate(route.page) }));
  return (pathname) => {
    if (pathname.startsWith("/_next/")) return "/_next/{asset}";
    const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    const known = exact.get(trimmed);
    if (known !== undefined) return known;
    for (const route of dynamic) if (route.pattern.test(pathname)) return route.label;
    return OTHER_ROUTE;
  };
}
