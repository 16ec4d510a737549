import { readFileSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { recordRequest, routeSeries, type RouteSeries } from "@/lib/metrics/requests";
import { OTHER_ROUTE, createRouteLabeler, type ManifestRoute } from "@/lib/metrics/routes";
import { logger } from "@/lib/logger";

/**
 * Every request of server.ts is counted when its connection is done with it ('close'): the lean
 * path names its route before answering (`nameRoute`, from its route table); anything Next serves
 * is labelled at the end from the build's route list. One shared listener, the start time and the
 * route kept on the response: nothing allocated per request beyond what Node does.
 */
const STARTED = Symbol("metrics.started");
const SERIES = Symbol("metrics.series");
type Tracked = http.ServerResponse & { [STARTED]?: number; [SERIES]?: RouteSeries };

/** A client that left before its answer was written: counted with nginx's "client closed request". */
const CLIENT_CLOSED = 499;

let labelNextPath: (pathname: string) => string = () => OTHER_ROUTE;

/** Reads the routes of Next's build (`<distDir>/routes-manifest.json`); without it every Next path is `other`. */
export function labelRoutesFromBuild(distDir: string): void {
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, "routes-manifest.json"), "utf8")) as {
      staticRoutes?: ManifestRoute[];
      dynamicRoutes?: ManifestRoute[];
    };
    labelNextPath = createRouteLabeler(manifest);
  } catch (error) {
    logger.warn("metrics: Next's route list could not be read; its requests are counted as route other", { error });
  }
}

function finish(this: Tracked): void {
  const started = this[STARTED];
  if (started === undefined) return;
  const request = this.req;
  let series = this[SERIES];
  if (!series) {
    const url = request.url ?? "/";
    const query = url.indexOf("?");
    series = routeSeries(labelNextPath(query < 0 ? url : url.slice(0, query)));
  }
  const status = this.writableFinished ? this.statusCode : CLIENT_CLOSED;
  recordRequest(series, request.method ?? "GET", status, (performance.now() - started) / 1000);
}

/** Starts the clock of one request; counted once its connection is done with it. */
export function trackRequest(res: http.ServerResponse): void {
  (res as Tracked)[STARTED] = performance.now();
  res.on("close", finish); // emitted once; `once` would wrap the listener anew each time
}

/** The route template the lean path matched. */
export function nameRoute(res: http.ServerResponse, series: RouteSeries): void {
  (res as Tracked)[SERIES] = series;
}
