import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import type { MerchantSettings } from "./settings-schema";

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
