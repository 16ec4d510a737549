import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import type { Viewer } from "@/lib/identity/membership";

/** The business name shown in the dashboard and in invitation e-mails (owners only, checked by the action). */
export async function renameMerchant(db: Db, viewer: Viewer, merchantName: string): Promise<void> {
  await db.update(merchants).set({ name: merchantName }).where(eq(merchants.id, viewer.merchant.id));
}
