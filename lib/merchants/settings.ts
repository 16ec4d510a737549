import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";

/** The merchant's own switches, as the Settings page edits them. */
export const merchantSettingsSchema = z.object({
  /** Issue 10: whether a live invoice may name its connection; test invoices always may. */
  allowLivePins: z.boolean({ error: "Choose on or off" }),
});

export type MerchantSettings = z.output<typeof merchantSettingsSchema>;

export async function getMerchantSettings(db: Db, merchantId: string): Promise<MerchantSettings | undefined> {
  const [row] = await db.select({ allowLivePins: merchants.allowLivePins }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row;
}

/** Saved at once for every path: the invoice API reads the setting fresh on each pinned live invoice. */
export async function updateMerchantSettings(db: Db, merchantId: string, settings: MerchantSettings): Promise<MerchantSettings | undefined> {
  const [row] = await db
    .update(merchants)
    .set({ allowLivePins: settings.allowLivePins })
    .where(eq(merchants.id, merchantId))
    .returning({ allowLivePins: merchants.allowLivePins });
  return row;
}
