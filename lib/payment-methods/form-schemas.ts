import { z } from "zod";

/**
 * The dashboard's saved-card forms, one schema each for form and action: Remove on a
 * customer's page (lib/actions/payment-methods.ts) and the composer's "Charge a saved card" lookup.
 */
export const removeCardSchema = z.object({ id: z.string().trim().min(1, "Choose a saved card.").max(100) });

export const savedCardsQuerySchema = z.object({
  customerReference: z.string().trim().min(1, "Enter the customer's reference_id.").max(255, "At most 255 characters."),
  testMode: z.boolean(),
});
