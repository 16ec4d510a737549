"use server";

import { revalidatePath } from "next/cache";
import { personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { canInMode, modeRefusal } from "@/lib/identity/permissions";
import { removeCardSchema, savedCardsQuerySchema } from "@/lib/payment-methods/form-schemas";
import { findPaymentMethod, listPaymentMethods } from "@/lib/payment-methods/store";
import { detachPaymentMethod } from "@/lib/processing/saved-cards";
import { ok, refuse } from "@/lib/problems";
import { providerCan } from "@/lib/providers/capabilities";
import { getProvider } from "@/lib/providers";
import { cardBrandLabel } from "@/lib/cards/bin";
import { validatedAction } from "./validated-action";

/** A saved card as the composer offers it: never the token. */
export type ChargeableCard = { id: string; brand: string | null; lastFour: string; expiry: string; providerName: string; connectionLabel: string | null };

/**
 * Remove on a customer's page: detaches the saved card (the provider told where its API
 * allows, as DELETE …/payment-methods/{id}); roles with cards.remove in the card's mode
 * (lib/identity/permissions.ts). Another merchant's card is not found.
 */
export const removeSavedCardAction = validatedAction("customers.remove-card", { schema: removeCardSchema, can: "cards.remove" }, async (input, viewer) => {
  const db = await getDb();
  const method = (await findPaymentMethod(db, viewer.merchant.id, "test", input.id)) ?? (await findPaymentMethod(db, viewer.merchant.id, "live", input.id));
  if (!method) return refuse("not_found", "This saved card does not exist.");
  const mode = method.testMode ? "test" : "live";
  if (!canInMode(viewer.user.role, "cards.remove", mode)) return refuse("forbidden", modeRefusal(viewer.user.role, "cards.remove", mode));
  const result = await detachPaymentMethod(db, viewer.merchant.id, mode, input.id);
  if (result.kind === "not_found") return refuse("not_found", "This saved card does not exist.");
  if (!method.detachedAt) {
    await recordAudit(db, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "card.removed",
      target: { type: "payment_method", id: method.id },
      summary: `${cardBrandLabel(method.brand) ?? "Card"} •••• ${method.lastFour} of ${method.customerReference}${method.testMode ? " (test)" : ""}`,
    });
  }
  revalidatePath(`/customers/${encodeURIComponent(method.customerReference)}`);
  revalidatePath("/customers");
  return ok({ id: method.id, providerTold: result.provider === "deleted" || result.provider === "unknown_token" });
});

/**
 * The composer's "Charge a saved card": the cards of one customer reference that can be charged
 * in the mode asked (not detached, connection not deleted, a provider that keeps cards). Those who
 * may compose in that mode only.
 */
export const listChargeableCardsAction = validatedAction(
  "customers.chargeable-cards",
  { schema: savedCardsQuerySchema, can: "invoices.compose" },
  async (input, viewer) => {
    const mode = input.testMode ? "test" : "live";
    if (!canInMode(viewer.user.role, "invoices.compose", mode)) return refuse("forbidden", modeRefusal(viewer.user.role, "invoices.compose", mode));
    const page = await listPaymentMethods(await getDb(), viewer.merchant.id, {
      mode,
      customerReference: input.customerReference,
      pageSize: 50,
      activeOnly: true,
    });
    const cards: ChargeableCard[] = page.methods
      .filter((method) => !method.connectionDeleted && providerCan(method.provider, "card_tokens"))
      .map((method) => ({
        id: method.id,
        brand: cardBrandLabel(method.brand),
        lastFour: method.lastFour,
        expiry: `${String(method.expiryMonth).padStart(2, "0")}/${method.expiryYear}`,
        providerName: getProvider(method.provider)?.name ?? method.provider,
        connectionLabel: method.connectionLabel,
      }));
    return ok({ cards });
  },
);
