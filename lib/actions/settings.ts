"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { updateMerchantSettings } from "@/lib/merchants/settings";
import { merchantSettingsSchema } from "@/lib/merchants/settings-schema";
import { validatedAction } from "./validated-action";

/** Owners switch the merchant's settings (issue 10: "Allow pinning live invoices"). */
export const updateMerchantSettingsAction = validatedAction(
  "settings.update",
  { schema: merchantSettingsSchema, role: "owner" },
  async (input, viewer) => {
    const saved = await updateMerchantSettings(await getDb(), viewer.merchant.id, input);
    if (!saved) throw new NotFoundError("Your merchant account no longer exists.");
    revalidatePath("/settings");
    revalidatePath("/invoices/new");
    return { ok: true, data: saved };
  },
);
