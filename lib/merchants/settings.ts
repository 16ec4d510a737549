import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants, users } from "@/lib/db/schema";
import { DEFAULT_TIME_ZONE } from "@/lib/time-zones";
import type { InvoiceLifetime, MerchantSettings, MerchantTimeZone, PersonTimeZone } from "./settings-schema";

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

/** The merchant's default invoice lifetime, in minutes as the Settings form shows it, and in seconds. */
export async function getInvoiceLifetime(db: Db, merchantId: string): Promise<{ lifetimeMinutes: number; lifetimeSeconds: number } | undefined> {
  const [row] = await db.select({ seconds: merchants.invoiceLifetimeSeconds }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row && { lifetimeMinutes: Math.max(1, Math.round(row.seconds / 60)), lifetimeSeconds: row.seconds };
}

/** Applies to invoices created from now on; existing invoices keep their expires_at. */
export async function updateInvoiceLifetime(
  db: Db,
  merchantId: string,
  input: InvoiceLifetime,
): Promise<{ lifetimeMinutes: number; lifetimeSeconds: number } | undefined> {
  const [row] = await db
    .update(merchants)
    .set({ invoiceLifetimeSeconds: input.lifetimeMinutes * 60 })
    .where(eq(merchants.id, merchantId))
    .returning({ seconds: merchants.invoiceLifetimeSeconds });
  return row && { lifetimeMinutes: row.seconds / 60, lifetimeSeconds: row.seconds };
}

/** The merchant's time zone; "UTC" until an owner chooses one. */
export async function getMerchantTimeZone(db: Db, merchantId: string): Promise<string> {
  const [row] = await db.select({ timeZone: merchants.timeZone }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row?.timeZone ?? DEFAULT_TIME_ZONE;
}

export async function updateMerchantTimeZone(db: Db, merchantId: string, input: MerchantTimeZone): Promise<MerchantTimeZone | undefined> {
  const [row] = await db.update(merchants).set({ timeZone: input.timeZone }).where(eq(merchants.id, merchantId)).returning({ timeZone: merchants.timeZone });
  return row;
}

/** A person's own zone for the dashboard's dates; empty stores null (the merchant's zone then). */
export async function updatePersonTimeZone(db: Db, userId: string, input: PersonTimeZone): Promise<PersonTimeZone | undefined> {
  const [row] = await db
    .update(users)
    .set({ timeZone: input.timeZone || null })
    .where(eq(users.id, userId))
    .returning({ timeZone: users.timeZone });
  return row && { timeZone: row.timeZone ?? "" };
}
