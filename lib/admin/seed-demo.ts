import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/api-keys/queries";
import type { Db } from "@/lib/db/client";
import { findUserByEmail, createMerchantWithOwner } from "@/lib/merchants/queries";

export const DEMO_EMAIL = "demo@example.com";

/** A demo merchant to click around with; prints its password and an API key. Refuses to run twice. */
export async function seedDemo(db: Db): Promise<Record<string, unknown>> {
  if (await findUserByEmail(db, DEMO_EMAIL)) throw new Error(`${DEMO_EMAIL} exists already; nothing was changed`);
  const password = `demo-${randomBytes(6).toString("hex")}1`;
  const created = await createMerchantWithOwner(db, {
    email: DEMO_EMAIL,
    password,
    name: "Demo Owner",
    merchantName: "Demo Merchant",
    commerceAccount: "demo",
  });
  if (!created.ok) throw new Error(created.errors.map((e) => e.message).join("; "));
  const { key } = await createApiKey(db, { merchantId: created.value.merchant.id, name: "Demo key" });
  return { email: DEMO_EMAIL, password, merchantId: created.value.merchant.id, commerceAccount: "demo", apiKey: key, connections: [] };
}
