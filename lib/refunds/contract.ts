import { z } from "zod";

/**
 * The refund request (`POST /api/commerce/payment-invoices/{id}/refunds`), one schema for the API,
 * the dashboard's Refund form and the OpenAPI document. `amount` left out refunds the whole rest
 * (what was processed less what is refunded or on its way back); the amount itself is checked
 * against the invoice's currency and rest by the service (lib/refunds/create-refund.ts).
 */
export const REFUND_REASON_MAX = 500;
const REFUND_REFERENCE_MAX = 255;

const refundAttributesSchema = z
  .object({
    amount: z
      .union([z.string(), z.number()], { error: 'amount must be a decimal number or string, such as 10.50 or "10.50"' })
      .optional()
      .describe("What to refund, in the invoice's currency. Left out: the whole refundable rest."),
    reference_id: z
      .string({ error: "reference_id is required: your own key for this refund, unique per merchant and mode" })
      .trim()
      .min(1, "reference_id must not be empty")
      .max(REFUND_REFERENCE_MAX, `reference_id must be at most ${REFUND_REFERENCE_MAX} characters`)
      .describe(
        "Your key for this refund, unique per merchant within its mode (test and live refunds may use the same one): a retry with the same reference and body answers the first refund.",
      ),
    reason: z
      .string({ error: "reason must be text" })
      .trim()
      .max(REFUND_REASON_MAX, `reason must be at most ${REFUND_REASON_MAX} characters`)
      .optional()
      .describe("Why, in a few words (shown on the invoice's page; sent to the provider where it takes one)."),
    test_mode: z
      .boolean({ error: "test_mode must be true or false" })
      .optional()
      .describe("When sent, it must be the invoice's own test_mode: a guard against refunding in the wrong mode."),
  })
  .strict();

export const refundRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("refund", { error: 'data.type must be "refund"' }),
        attributes: refundAttributesSchema,
      })
      .strict(),
  })
  .strict();
