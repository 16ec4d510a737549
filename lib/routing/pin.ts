import { eq } from "drizzle-orm";
import { findConnectionRow } from "@/lib/connections/queries";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { fail, ok, problem, type Problem, type Result } from "@/lib/problems";
import { offersService, type RouteCandidate, type RouteRequest } from "./candidates";

/** Where the invoice API takes a pin: JSON:API's to-one relationship of the invoice. */
const PIN_PATH = ["data", "relationships", "connection"] as const;
const PIN_ID_PATH = [...PIN_PATH, "data", "id"] as const;

/** The codes of a refused pin; the invoice API answers each with 422 and a pointer at the pin. */
type PinProblemCode = "connection_not_found" | "connection_disabled" | "mode_mismatch" | "service_not_offered" | "live_pin_not_allowed";

export type PinRequest = RouteRequest & { connectionId: string };

export type PinnedRoute = Omit<RouteCandidate, "position">;

const pinProblem = (code: PinProblemCode, message: string, path: readonly string[] = PIN_ID_PATH) => problem(code, message, path);

async function allowsLivePins(db: Db, merchantId: string): Promise<boolean> {
  const [row] = await db.select({ allow: merchants.allowLivePins }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row?.allow === true;
}

const modeText = (mode: string) => (mode === "test" ? "a test invoice (test_mode true)" : "a live invoice (test_mode omitted or false)");

/**
 * An invoice may name its connection ("pin") so that support staff can try one provider
 * on purpose. The connection must be the merchant's (another merchant's is not found, like an
 * unknown id), enabled, of the invoice's mode and offer the service. Live invoices may be pinned
 * only when the merchant allows it (Settings), because a pin bypasses the routing order the owner
 * set. Read fresh rather than cached: pins are for tests, not the hot path, and a setting change
 * must apply at once. A pinned invoice never cascades to another connection.
 */
export async function findPinnedRoute(db: Db, merchantId: string, pin: PinRequest): Promise<Result<PinnedRoute>> {
  if (pin.mode === "live" && !(await allowsLivePins(db, merchantId))) {
    return fail([
      pinProblem(
        "live_pin_not_allowed",
        'Live invoices cannot name their connection unless an owner turns on "Allow pinning live invoices" in Settings; ' +
          "leave data.relationships.connection out to route by your routing order",
        PIN_PATH,
      ),
    ]);
  }
  const row = await findConnectionRow(db, merchantId, pin.connectionId);
  if (!row) return fail([pinProblem("connection_not_found", `No connection ${pin.connectionId} exists for this merchant`)]);
  const problems: Problem[] = [];
  if (!row.enabled) problems.push(pinProblem("connection_disabled", `${row.label} is disabled; enable it or name another connection`));
  if (row.mode !== pin.mode) {
    problems.push(pinProblem("mode_mismatch", `${row.label} is a ${row.mode}-mode connection and this is ${modeText(pin.mode)}`));
  }
  if (!offersService(row, pin.service)) problems.push(pinProblem("service_not_offered", `${row.label} does not offer ${pin.service}`));
  if (problems.length) return fail(problems);
  return ok({ connectionId: row.id, provider: row.provider, kind: row.kind, constants: row.constants });
}
