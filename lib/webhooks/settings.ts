import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import type { Result } from "@/lib/problems";
import { ensureSigningSecret, secretStatus } from "./secrets";
import { checkWebhookUrl } from "@/lib/http/url-check";
import type { WebhookSettingsView } from "./views";

/** What Settings shows: the URL and when the secrets were made, never a secret. */
export async function getWebhookSettings(db: Db, merchantId: string): Promise<WebhookSettingsView> {
  const [row] = await db.select({ url: merchants.webhookUrl }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  const status = await secretStatus(db, merchantId);
  return {
    url: row?.url ?? null,
    secretCreatedAt: status.currentCreatedAt?.toISOString() ?? null,
    retiringSecrets: status.retiring.map((at) => at.toISOString()),
  };
}

/**
 * Saves (or with "" clears) the callback URL after the full check. The first save makes the
 * signing secret and returns it: the only time it is ever shown.
 */
export async function saveWebhookUrl(db: Db, merchantId: string, text: string): Promise<Result<{ url: string | null; secret: string | null }>> {
  if (text === "") {
    await db.update(merchants).set({ webhookUrl: null }).where(eq(merchants.id, merchantId));
    return { ok: true, value: { url: null, secret: null } };
  }
  const checked = await checkWebhookUrl(text);
  if (!checked.ok) return checked;
  const url = checked.value.toString();
  await db.update(merchants).set({ webhookUrl: url }).where(eq(merchants.id, merchantId));
  const secret = await ensureSigningSecret(db, merchantId);
  return { ok: true, value: { url, secret } };
}
