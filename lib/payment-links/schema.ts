import { z } from "zod";
import { DESCRIPTION_MAX } from "@/lib/invoices/contract/field-schemas";

/**
 * The composer's Payment link mode, in plain words: what the person types. The same schema checks
 * the form in the browser (loaded on the first check) and the server action. Amount and currency
 * are checked again by the invoice contract when the invoice is made (decimals per currency).
 */
export const paymentLinkSchema = z.object({
  amount: z
    .string()
    .trim()
    .min(1, "Enter the amount, e.g. 25.00")
    .regex(/^(?:0|[1-9]\d{0,11})(?:\.\d{1,2})?$/, "Enter the amount as digits with up to two decimals, e.g. 25.00"),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, "Choose the currency"),
  description: z.string().trim().min(1, "Say what the payment is for").max(DESCRIPTION_MAX, `At most ${DESCRIPTION_MAX} characters`),
  email: z.string().trim().min(1, "Enter the customer's e-mail").pipe(z.email("Enter an e-mail address such as ada@example.com")),
  test_mode: z.boolean(),
});

export type PaymentLinkValues = z.output<typeof paymentLinkSchema>;

/** What the form shows once the link is made (plain JSON: it goes to the browser). */
export type PaymentLink = {
  invoiceId: string;
  url: string;
  /** The link drawn as a QR code (SVG text), for a customer in front of the merchant. */
  qrSvg: string;
  email: string;
  /** False when the mail server refused: the link still works and the page says to send it another way. */
  emailed: boolean;
  amount: string;
  currency: string;
  testMode: boolean;
};
