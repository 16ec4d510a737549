import { z } from "zod";
import { REFUND_REASON_MAX } from "./contract";

/**
 * The dashboard's Refund form (components/invoices/refund-form.tsx) and its action
 * (lib/actions/refunds.ts): the amount as typed (checked against the invoice's currency and rest by
 * the service, as for the API), a reason, and the form's own reference, drawn when the form opens,
 * so a double submit is one refund.
 */
export const refundFormSchema = z.object({
  invoiceId: z.string().min(1).max(128),
  referenceId: z.string().min(8).max(64),
  amount: z.string().trim().min(1, "Enter the amount to refund.").max(32, "Enter an amount such as 10.50."),
  reason: z.string().trim().max(REFUND_REASON_MAX, `At most ${REFUND_REASON_MAX} characters.`).optional(),
});

export type RefundFormValues = z.input<typeof refundFormSchema>;
