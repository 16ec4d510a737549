import type { Db } from "@/lib/db/client";
import { problem, type Problem } from "@/lib/problems";
import type { Mode } from "@/lib/providers";
import { getRoutingOrder, type RoutingOrder } from "@/lib/routing/orders";
import { parseRoutingOrderId, VERSION_TEXT } from "@/lib/routing/schemas";
import { ApiError } from "./errors";
import { keyServes, notFoundForKey } from "./key-mode";

function decoded(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

/**
 * The routing order named by `service:mode` in a path (the colon may come percent-encoded), if it is
 * of the API key's mode and a connection offers it; else 404.
 */
export async function findRoutingOrder(db: Db, merchantId: string, id: string, keyMode: Mode | undefined): Promise<RoutingOrder> {
  const scope = parseRoutingOrderId(decoded(id));
  if (scope && !keyServes(keyMode, scope.mode)) throw notFoundForKey(keyMode, `routing order ${id}`);
  const order = scope && (await getRoutingOrder(db, merchantId, scope.service, scope.mode));
  if (!order) throw new ApiError(404, "not_found", "Not found", `No routing order ${id}: none of your connections offers that service in that mode`);
  return order;
}

/** A whole number from 1 in a query parameter (a version, a page size): undefined when absent, a problem naming the parameter otherwise. */
export function versionParameter(search: URLSearchParams, name: string, problems: Problem[], what = "a version number"): number | undefined {
  const value = search.get(name);
  if (value === null) return undefined;
  if (VERSION_TEXT.test(value)) return Number(value);
  problems.push(problem("invalid_parameter", `${name} must be ${what} (a whole number from 1)`, [name]));
  return undefined;
}

/** Domain problems about a version that does not exist (unknown_version) answer 404, with the domain's sentence. */
export function versionNotFound(problems: readonly Problem[]): ApiError | undefined {
  const missing = problems.find((entry) => entry.code === "unknown_version");
  return missing ? new ApiError(404, "not_found", "Not found", missing.message) : undefined;
}
