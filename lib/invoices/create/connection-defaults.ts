import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connectionServiceDefaults } from "@/lib/db/schema";
import { fail, ok, problem, type Problem, type Result } from "@/lib/problems";
import { findConnectionRow } from "@/lib/connections/queries";
import { forgetRoutes } from "@/lib/connections/route-cache";
import { findService, type Mode } from "@/lib/providers";
import { offersService } from "./routing";

export type ServiceDefault = { service: string; mode: Mode; connectionId: string };

/**
 * Marks the connection that routing prefers for a service in a mode (issue "Routing": "the one
 * marked default for that service"). One default per merchant, service and mode; setting another
 * replaces it. The connection must be the merchant's, in that mode, and offer the service; it may
 * be disabled (routing then skips it until it is enabled again).
 */
export async function setDefaultConnection(db: Db, merchantId: string, input: ServiceDefault): Promise<Result<ServiceDefault>> {
  const problems: Problem[] = [];
  if (!findService(input.service)) problems.push(problem("unknown_service", `Unknown service "${input.service}"`, ["service"]));
  const row = await findConnectionRow(db, merchantId, input.connectionId);
  if (!row) {
    problems.push(problem("not_found", `No connection ${input.connectionId} exists for this merchant`, ["connectionId"]));
  } else {
    if (row.mode !== input.mode) {
      problems.push(problem("mode_mismatch", `${row.label} is a ${row.mode}-mode connection, not ${input.mode}`, ["mode"]));
    }
    if (findService(input.service) && !offersService(row, input.service)) {
      problems.push(problem("service_not_offered", `${row.label} does not offer ${input.service}`, ["service"]));
    }
  }
  if (problems.length) return fail(problems);
  await db
    .insert(connectionServiceDefaults)
    .values({ merchantId, ...input })
    .onConflictDoUpdate({
      target: [connectionServiceDefaults.merchantId, connectionServiceDefaults.service, connectionServiceDefaults.mode],
      set: { connectionId: input.connectionId, updatedAt: new Date() },
    });
  forgetRoutes(merchantId);
  return ok(input);
}

/** Removes the default for a service and mode; routing then takes the oldest connection. */
export async function clearDefaultConnection(db: Db, merchantId: string, input: { service: string; mode: Mode }): Promise<boolean> {
  const rows = await db
    .delete(connectionServiceDefaults)
    .where(
      and(
        eq(connectionServiceDefaults.merchantId, merchantId),
        eq(connectionServiceDefaults.service, input.service),
        eq(connectionServiceDefaults.mode, input.mode),
      ),
    )
    .returning({ service: connectionServiceDefaults.service });
  forgetRoutes(merchantId);
  return rows.length > 0;
}

export async function listDefaultConnections(db: Db, merchantId: string): Promise<ServiceDefault[]> {
  return db
    .select({
      service: connectionServiceDefaults.service,
      mode: connectionServiceDefaults.mode,
      connectionId: connectionServiceDefaults.connectionId,
    })
    .from(connectionServiceDefaults)
    .where(eq(connectionServiceDefaults.merchantId, merchantId))
    .orderBy(asc(connectionServiceDefaults.service), asc(connectionServiceDefaults.mode));
}
