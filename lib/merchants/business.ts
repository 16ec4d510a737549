import { eq } from "drizzle-orm";
import { forgetMerchantKeys } from "@/lib/api-keys/queries";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import type { Viewer } from "@/lib/identity/membership";

/** The business name shown in the dashboard and in invitation e-mails (owners only, checked by the action). */
export async function renameMerchant(db: Db, viewer: Viewer, merchantName: string): Promise<void> {
  await db.update(merchants).set({ name: merchantName }).where(eq(merchants.id, viewer.merchant.id));
  // API callers carry the merchant's row from the key cache: every instance reads the new name at once.
  await forgetMerchantKeys(viewer.merchant.id);
}
