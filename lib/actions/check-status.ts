"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { checkStatusNow } from "@/lib/processing/invoice-page-schedule";
import { ok, refuse } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/**
 * "Check status now" on the invoice page: owners and support members ask the provider
 * at once about the invoice's open attempt. The session is checked by validatedAction; the invoice
 * must be the viewer's merchant's (another merchant's is not found).
 */
export const checkStatusNowAction = validatedAction(
  "invoices.check-status",
  { schema: z.object({ id: z.string().min(1).max(128) }) },
  async (input, viewer) => {
    const answer = await checkStatusNow(await getDb(), viewer.merchant.id, input.id);
    if (!answer.ok) return refuse("status_check_refused", answer.message);
    revalidatePath(`/invoices/${input.id}`);
    return ok(answer.data);
  },
);
