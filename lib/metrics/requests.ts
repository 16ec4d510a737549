import { metrics } from "./registry";

/**
 * Request counts and latency per route template, method and status. Built for the lean create path
 * (`npm run bench:api`): per request one counter increment and one histogram observation on
 * children looked up by a number in a small per-route map, no label object or string built.
 */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

type Children = { count: { inc(): void }; duration: { observe(value: number): void } };

/** One route template's series, made once per route and kept. */
export type RouteSeries = { route: string; children: Map<number, Children> };

const shared = globalThis as unknown as { __routeSeries?: Map<string, RouteSeries> };

/** The series of a route template (a bounded set: lib/metrics/routes.ts makes them). */
export function routeSeries(route: string): RouteSeries {
  const all = (shared.__routeSeries ??= new Map());
  let series = all.get(route);
  if (!series) all.set(route, (series = { route, children: new Map() }));
  return series;
}

/** One answered request. Methods outside the usual seven are counted as `other`. */
export function recordRequest(series: RouteSeries, method: string, status: number, seconds: number): void {
  let index: number = METHODS.indexOf(method as (typeof METHODS)[number]);
  if (index < 0) index = METHODS.length;
  const key = status * 8 + index;
  let children = series.children.get(key);
  if (!children) {
    const labels = [series.route, METHODS[index] ?? "other", String(status)] as const;
    children = { count: metrics().httpRequests.labels(...labels), duration: metrics().httpDuration.labels(...labels) };
    series.children.set(key, children);
  }
  children.count.inc();
  children.duration.observe(seconds);
}
