"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import { processPayout } from "@/lib/processing/engine";
import { ProblemsError } from "@/lib/errors";
import { fail, ok, refuse, testModeOnly } from "@/lib/problems";
import { canInMode } from "@/lib/identity/permissions";
import { validatedAction } from "./validated-action";

/** "Process payout" on a created payout's page (spec 4.2): owners send any payout to the provider, support members test ones (lib/identity/permissions.ts). */
export const processPayoutAction = validatedAction(
  "invoices.process-payout",
  { schema: z.object({ id: z.string().min(1).max(128) }), can: "payout.process" },
  async (input, viewer) => {
    const db = await getDb();
    const invoice = await getInvoice(db, viewer.merchant.id, "payout", input.id);
    if (!invoice) return refuse("not_found", "This payout does not exist.");
    if (!canInMode(viewer.user.role, "payout.process", invoice.testMode ? "test" : "live")) return fail([testModeOnly("process", "payout")]);
    try {
      const processed = await processPayout(db, invoice.id);
      await recordAudit(db, {
        merchantId: viewer.merchant.id,
        actor: personActor(viewer),
        action: "payout.processed",
        target: { type: "invoice", id: invoice.id },
        summary: `${invoice.amount} ${invoice.currency}${invoice.testMode ? " (test)" : ""}: ${processed.status}`,
      });
      revalidatePath(`/invoices/${invoice.id}`);
      return ok({ status: processed.status, resolution: processed.resolution });
    } catch (error) {
      if (error instanceof ProblemsError) return fail(error.problems);
      throw error;
    }
  },
);
