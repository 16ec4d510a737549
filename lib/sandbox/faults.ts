import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sandboxRecords } from "@/lib/db/schema";
import { providerTimeoutMs } from "@/lib/providers/kit/timeout";
import { SANDBOX_FAULT_MODES, type SandboxFaultMode } from "./fault-modes";
import { saveRecord, updateRecord } from "./records";

/**
 * A per-connection fault switch on the sandbox. The mode lives in the
 * sandboxes' own memory (`sandbox_records`, operation "fault", one record per connection), as a
 * real provider's outage would live on its side, not in the service's connection row.
 *
 * How a request meets it: `dispatchSandboxRequest` runs each sandbox request in a scope; the
 * shared account lookup (`findAcceptingAccount`) calls `noteSandboxAccount` with the connection
 * whose credentials the request carried. A `server_error` fault refuses there, before the sandbox
 * acts (HTTP 503: nothing happened, so another connection may take the invoice). The other modes
 * act on the sandbox's answer after it acted: `timeout` withholds it past the adapter's timeout,
 * `garbage` replaces it by a body that is not JSON, `slow` delays it by less than the timeout.
 */

const FAULT_OPERATION = "fault";

const faultReference = (connectionId: string) => `fault:${connectionId}`;

function asMode(value: string | undefined): SandboxFaultMode {
  return (SANDBOX_FAULT_MODES as readonly string[]).includes(value ?? "") ? (value as SandboxFaultMode) : "none";
}

/** The connection's fault mode; "none" when none was ever set. */
export async function getSandboxFault(db: Db, connectionId: string): Promise<SandboxFaultMode> {
  const [row] = await db
    .select({ status: sandboxRecords.status })
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.operation, FAULT_OPERATION), eq(sandboxRecords.connectionId, connectionId)));
  return asMode(row?.status);
}

/** Sets (or clears, with "none") the connection's fault. The caller checks the connection is the merchant's and in test mode. */
export async function setSandboxFault(db: Db, connection: { id: string; provider: string }, mode: SandboxFaultMode): Promise<SandboxFaultMode> {
  const reference = faultReference(connection.id);
  const saved = await saveRecord(db, { provider: connection.provider, connectionId: connection.id, operation: FAULT_OPERATION, reference, status: mode });
  if (saved.status !== mode) await updateRecord(db, connection.provider, reference, { status: mode });
  return mode;
}

/** Thrown by the account lookup for a connection whose sandbox answers 5xx; the dispatcher answers 503. */
class SandboxFaultRefusal extends Error {
  override name = "SandboxFaultRefusal";
}

type FaultScope = { db: Db; mode: SandboxFaultMode };

const scope = new AsyncLocalStorage<FaultScope>();

/** Runs one sandbox request; the answer is what the connection's fault makes of the sandbox's own. */
export async function runWithSandboxFaults(db: Db, request: Request, handle: () => Promise<Response>): Promise<Response> {
  const state: FaultScope = { db, mode: "none" };
  let answer: Response;
  try {
    answer = await scope.run(state, handle);
  } catch (error) {
    if (error instanceof SandboxFaultRefusal) {
      return Response.json(
        { error: "service_unavailable", message: "The sandbox is set to fail with a server error for this connection." },
        { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": "30" } },
      );
    }
    throw error;
  }
  return applyFault(state.mode, answer, request.signal);
}

/**
 * Called by the shared account lookup once it knows whose credentials the request carried.
 * Outside a sandbox request (tests calling a sandbox handler directly) it does nothing.
 */
export async function noteSandboxAccount(connectionId: string): Promise<void> {
  const state = scope.getStore();
  if (!state) return;
  state.mode = await getSandboxFault(state.db, connectionId);
  if (state.mode === "server_error") throw new SandboxFaultRefusal("sandbox fault: server error");
}

/** How long "no answer" lasts: past the adapter's timeout, so the caller gives up first. */
function timeoutHoldMs(): number {
  return providerTimeoutMs() + 1_000;
}

/** The slow mode's delay: a third of the timeout, at most 3 s, so the answer always arrives in time. */
export function slowDelayMs(): number {
  return Math.min(3_000, Math.floor(providerTimeoutMs() / 3));
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Not JSON in any reading: what a proxy in trouble or a half-written answer looks like. */
const GARBAGE_BODY = '<html><body>\u0000\u00ff{"result": tru';

async function applyFault(mode: SandboxFaultMode, answer: Response, signal: AbortSignal): Promise<Response> {
  switch (mode) {
    case "timeout":
      await wait(timeoutHoldMs(), signal);
      return answer;
    case "slow":
      await wait(slowDelayMs());
      return answer;
    case "garbage":
      await answer.body?.cancel();
      return new Response(GARBAGE_BODY, { status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
    default:
      return answer;
  }
}
