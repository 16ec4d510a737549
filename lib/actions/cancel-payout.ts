"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { cancelPayoutInvoice } from "@/lib/processing/cancel-payout";
import { fail, ok, refuse, testModeOnly } from "@/lib/problems";
import { canInMode } from "@/lib/identity/permissions";
import { validatedAction } from "./validated-action";

/**
 * Cancel payout on a payout's page: roles with payout.cancel.live cancel live and test payouts,
 * support members test ones only (lib/identity/permissions.ts; checked by the service). Same rules and answers as POST …/payout-invoices/{id}/cancel.
 */
export const cancelPayoutAction = validatedAction(
  "invoices.cancel-payout",
  { schema: z.object({ id: z.string().min(1).max(128) }), can: "payout.cancel" },
  async (input, viewer) => {
    const db = await getDb();
    const result = await cancelPayoutInvoice(db, viewer.merchant.id, input.id, { testOnly: !canInMode(viewer.user.role, "payout.cancel", "live") });
    switch (result.kind) {
      case "canceled":
        await recordAudit(db, {
          merchantId: viewer.merchant.id,
          actor: personActor(viewer),
          action: "payout.canceled",
          target: { type: "invoice", id: input.id },
          summary: `${result.invoice.amount} ${result.invoice.currency}${result.invoice.testMode ? " (test)" : ""}: ${result.invoice.status}`,
        });
        revalidatePath(`/invoices/${input.id}`);
        return ok({ status: result.invoice.status });
      case "not_found":
        return refuse("not_found", "This payout does not exist.");
      case "test_only":
        return fail([testModeOnly("cancel", "payout")]);
      case "refused":
        revalidatePath(`/invoices/${input.id}`);
        return refuse(result.code, result.detail);
    }
  },
);
