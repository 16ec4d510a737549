import { z } from "zod";

/**
 * The capture and void requests of an authorized payment (`POST
 * /api/commerce/payment-invoices/{id}/capture` and `…/void`), one schema for the API, the
 * invoice page's Capture form and the OpenAPI document. `amount` is in the invoice's money format
 * (a decimal number or string); left out, all that was authorized is captured. Checked against
 * the authorization by the service (lib/processing/authorization.ts).
 */
const captureAttributesSchema = z
  .object({
    amount: z
      .union([z.string(), z.number()], { error: 'amount must be a decimal number or string, such as 10.50 or "10.50"' })
      .optional()
      .describe(
        "What to capture, in the invoice's currency, at most authorized_amount; less releases the rest (where the provider captures part). Left out: all that was authorized.",
      ),
  })
  .strict();

export const captureRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("capture", { error: 'data.type must be "capture"' }),
        attributes: captureAttributesSchema.optional(),
      })
      .strict(),
  })
  .strict();

export const voidRequestSchema = z.object({ data: z.object({ type: z.literal("void", { error: 'data.type must be "void"' }) }).strict() }).strict();
