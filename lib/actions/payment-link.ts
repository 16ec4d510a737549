"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { paymentLinkSchema } from "@/lib/payment-links/schema";
import { canInMode } from "@/lib/identity/permissions";
import { validatedAction } from "./validated-action";

/**
 * The composer's Payment link: the invoice, its e-mail to the customer and the QR code. Whoever may
 * compose invoices may send one; a support member's is a test one, as in the composer.
 */
export const createPaymentLinkAction = validatedAction(
  "invoices.payment_link",
  { schema: paymentLinkSchema, can: "invoices.compose" },
  async (input, viewer) => {
    const result = await createPaymentLink(await getDb(), viewer.merchant, input, { testOnly: !canInMode(viewer.user.role, "invoices.compose", "live") });
    if (result.ok) revalidatePath("/invoices");
    return result;
  },
);
