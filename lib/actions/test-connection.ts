"use server";

import { z } from "zod";
import { recordAudit } from "@/lib/audit/record";
import { findConnectionRow } from "@/lib/connections/queries";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { testReceipt } from "@/lib/connections/test-receipt";
import { connectionScope, personActor } from "@/lib/connections/scope";
import { NotFoundError } from "@/lib/errors";
import { checkConnectionHealth, checkCredentialsHealth } from "@/lib/processing/connection-test";
import { describeHealth, type HealthReport } from "./test-connection-message";
import { ok, type Result } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/** "Test connection" on the connection page: the saved credentials against the sandbox or the live URL. */
export const testConnectionAction = validatedAction(
  "connections.test",
  { schema: z.object({ id: z.string().min(1) }), can: "connections.write" },
  async (input, viewer): Promise<Result<HealthReport>> => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const row = await findConnectionRow(scope.db, scope.merchantId, input.id);
    if (!row) throw new NotFoundError("This connection does not exist or was deleted.");
    const report = describeHealth(await checkConnectionHealth(scope.db, scope.merchantId, row.id), row.provider, row.kind);
    await recordAudit(scope.db, {
      merchantId: scope.merchantId,
      actor: scope.actor,
      action: "connection.tested",
      target: { type: "connection", id: row.id },
      summary: row.label,
      changes: [report.kind],
    });
    return ok(report);
  },
);

/**
 * The New connection form's values, checked by the form's own schema; the label does not matter
 * for a test, so a blank one is not held against it.
 */
const unsavedConnectionSchema = z.preprocess((value) => {
  if (!value || typeof value !== "object") return value;
  const { label } = value as { label?: unknown };
  return { ...value, label: typeof label === "string" && label.trim() ? label : "Unsaved connection" };
}, createConnectionSchema);

/** "Test connection" in the New connection form, before anything is saved. */
export const testCredentialsAction = validatedAction(
  "connections.test-credentials",
  { schema: unsavedConnectionSchema, can: "connections.write" },
  async (input, viewer): Promise<Result<HealthReport>> => {
    const result = await checkCredentialsHealth(input.provider, input.kind, input.mode, input.credentials);
    const report = describeHealth(result, input.provider, input.kind, { unsaved: true, mode: input.mode });
    // Saved unchanged, these values count as tested (lib/connections/test-receipt.ts).
    return ok(report.kind === "ok" ? { ...report, receipt: testReceipt(viewer.merchant.id, input) } : report);
  },
);
