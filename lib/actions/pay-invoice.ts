"use server";

import { getDb } from "@/lib/db/client";
import { payHostedInvoice, type PayAnswer } from "@/lib/pay/pay-hosted-invoice";
import type { ActionResult } from "./result";
import { runAction, unsafeInputResult } from "./validated-action";

/**
 * "Pay" on the public hosted page. No session: the invoice's unguessable id is the only key, and
 * the answer says nothing the page does not already show. The card number is never returned.
 */
export async function payInvoiceAction(invoiceId: string, card: unknown): Promise<ActionResult<PayAnswer>> {
  return runAction("payInvoice", async () => {
    if (typeof invoiceId !== "string") return { ok: false, problems: [], message: "This payment page does not exist." };
    const unsafe = unsafeInputResult(card);
    if (unsafe) return unsafe;
    return payHostedInvoice(await getDb(), invoiceId, card);
  });
}
