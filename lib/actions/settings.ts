"use server";

import { revalidatePath } from "next/cache";
import { personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { updateInvoiceLifetime, updateMerchantSettings, updateMerchantTimeZone, updatePersonTimeZone } from "@/lib/merchants/settings";
import { invoiceLifetimeSchema, merchantSettingsSchema, merchantTimeZoneSchema, personTimeZoneSchema } from "@/lib/merchants/settings-schema";
import { ok } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/** Owners switch the merchant's settings ("Allow pinning live invoices"). */
export const updateMerchantSettingsAction = validatedAction(
  "settings.update",
  { schema: merchantSettingsSchema, can: "settings.write" },
  async (input, viewer) => {
    const saved = await updateMerchantSettings(await getDb(), viewer.merchant.id, input);
    if (!saved) throw new NotFoundError("Your merchant account no longer exists.");
    await recordAudit(await getDb(), {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "settings.updated",
      target: { type: "settings", id: viewer.merchant.id },
      summary: `Allow pinning live invoices: ${saved.allowLivePins ? "on" : "off"}`,
      changes: ["allow_live_pins"],
    });
    revalidatePath("/settings");
    revalidatePath("/invoices/new");
    return ok(saved);
  },
);

/** Owners set the default lifetime of new invoices ("Invoice lifetime", in minutes). */
export const updateInvoiceLifetimeAction = validatedAction(
  "settings.invoice-lifetime",
  { schema: invoiceLifetimeSchema, can: "settings.write" },
  async (input, viewer) => {
    const saved = await updateInvoiceLifetime(await getDb(), viewer.merchant.id, input);
    if (!saved) throw new NotFoundError("Your merchant account no longer exists.");
    await recordAudit(await getDb(), {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "settings.updated",
      target: { type: "settings", id: viewer.merchant.id },
      summary: `Invoice lifetime: ${saved.lifetimeMinutes} minutes`,
      changes: ["invoice_lifetime"],
    });
    revalidatePath("/settings");
    return ok(saved);
  },
);

/** Owners set the merchant's time zone (the export's times are written in it). */
export const updateMerchantTimeZoneAction = validatedAction(
  "settings.time-zone",
  { schema: merchantTimeZoneSchema, can: "settings.write" },
  async (input, viewer) => {
    const saved = await updateMerchantTimeZone(await getDb(), viewer.merchant.id, input);
    if (!saved) throw new NotFoundError("Your merchant account no longer exists.");
    await recordAudit(await getDb(), {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "settings.updated",
      target: { type: "settings", id: viewer.merchant.id },
      summary: `Time zone: ${saved.timeZone}`,
      changes: ["time_zone"],
    });
    revalidatePath("/settings");
    return ok(saved);
  },
);

/** Anyone sets their own time zone for the dashboard's dates (a personal preference: not audited). */
export const updatePersonTimeZoneAction = validatedAction("settings.person-time-zone", { schema: personTimeZoneSchema }, async (input, viewer) => {
  const saved = await updatePersonTimeZone(await getDb(), viewer.user.id, input);
  if (!saved) throw new NotFoundError("Your account no longer exists.");
  revalidatePath("/", "layout");
  return ok(saved);
});
