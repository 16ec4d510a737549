"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getConnection } from "@/lib/connections/queries";
import { getDb } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { fail, ok, problem, type Result } from "@/lib/problems";
import { SANDBOX_FAULT_LABELS, SANDBOX_FAULT_MODES, type SandboxFaultMode } from "@/lib/sandbox/fault-modes";
import { setSandboxFault } from "@/lib/sandbox/faults";
import { validatedAction } from "./validated-action";

const schema = z.object({ id: z.string().min(1), mode: z.enum(SANDBOX_FAULT_MODES, { error: `Choose one of: ${SANDBOX_FAULT_MODES.join(", ")}` }) });

/**
 * The connection page's "Sandbox behaviour" control. Owners only, and only for
 * a test-mode connection: a live connection talks to the real provider, whose behaviour is not ours
 * to set. The mode is kept by the sandbox itself (lib/sandbox/faults.ts).
 */
export const setSandboxFaultAction = validatedAction(
  "connections.sandbox-fault",
  { schema, can: "connections.write" },
  async ({ id, mode }, viewer): Promise<Result<{ mode: SandboxFaultMode; message: string }>> => {
    const db = await getDb();
    const connection = await getConnection(db, viewer.merchant.id, id);
    if (!connection) throw new NotFoundError("This connection does not exist or was deleted.");
    if (connection.mode !== "test") {
      const message = "Sandbox behaviour can be set on test-mode connections only: a live connection talks to the real provider.";
      // On the mode field and in the alert both.
      return fail([problem("live_connection", message, ["mode"]), problem("live_connection", message)]);
    }
    await setSandboxFault(db, connection, mode);
    revalidatePath(`/connections/${id}`);
    const message =
      mode === "none"
        ? `The sandbox of "${connection.label}" answers normally again.`
        : `The sandbox of "${connection.label}" now behaves as: ${SANDBOX_FAULT_LABELS[mode].label}.`;
    return ok({ mode, message });
  },
);
