import { z } from "zod";
import { parseAmount } from "@/lib/money";
import { REFUND_REASON_MAX } from "./contract";
import { checkRefundAmount } from "./rules";

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

/**
 * The form's schema in the browser: the same schema, plus the service's own amount rule
 * (checkRefundAmount) against the currency and the rest the page shows, so "abc", "-5", "0.00" or
 * more than the rest stop at Review, on the amount field. The service checks again when it stores
 * the refund, against the rest at that moment.
 */
export function refundFormSchemaFor(currency: string, rest: string) {
  const restAmount = parseAmount(rest, currency);
  const restMinor = restAmount.ok ? restAmount.minor : 0n;
  return refundFormSchema.superRefine((values, context) => {
    if (values.amount === "") return;
    const checked = checkRefundAmount(values.amount, currency, restMinor);
    if (!checked.ok) context.addIssue({ code: "custom", path: ["amount"], message: checked.message });
  });
}
