"use server";

import { revalidatePath } from "next/cache";
import { personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { resendEvent, sendTestEvent, type DeliveryTry } from "@/lib/webhooks/deliver";
import { noInputSchema, resendEventSchema, webhookUrlSchema } from "@/lib/webhooks/schemas";
import { rotateSigningSecret } from "@/lib/webhooks/secrets";
import { saveWebhookUrl } from "@/lib/webhooks/settings";
import type { WebhookAnswer } from "@/lib/webhooks/views";
import { ok, refuse } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/** A try as the page shows it: the receiver's answer, never the body or a secret. */
const answerOf = (result: DeliveryTry): WebhookAnswer => ({
  eventId: result.eventId,
  succeeded: result.succeeded,
  statusCode: result.statusCode,
  durationMs: result.durationMs,
  excerpt: result.excerpt,
  error: result.error,
});

/**
 * Settings (owners): saves or clears the callback URL after the full check (scheme, every
 * resolved address). `secret` is the new signing secret on the first save only: shown once.
 */
export const saveWebhookUrlAction = validatedAction("webhooks.save-url", { schema: webhookUrlSchema, role: "owner" }, async (input, viewer) => {
  const saved = await saveWebhookUrl(await getDb(), viewer.merchant.id, input.url);
  if (!saved.ok) return saved;
  await recordAudit(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer), action: "webhook.url_changed", target: { type: "webhook", id: viewer.merchant.id }, summary: saved.value.url ? `URL set (${new URL(saved.value.url).host})` : "URL cleared" });
  revalidatePath("/settings");
  return ok(saved.value);
});

/** Settings (owners): a new signing secret, shown once; the old one keeps signing for 24 hours. */
export const rotateWebhookSecretAction = validatedAction("webhooks.rotate-secret", { schema: noInputSchema, role: "owner" }, async (_input, viewer) => {
  const rotated = await rotateSigningSecret(await getDb(), viewer.merchant.id);
  await recordAudit(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer), action: "webhook.secret_rotated", target: { type: "webhook", id: viewer.merchant.id } });
  revalidatePath("/settings");
  return ok({ secret: rotated.secret, previousRetiresAt: rotated.previousRetiresAt?.toISOString() ?? null });
});

/** Settings (owners): a `webhook.test` event with a sample invoice, delivered now; answers with the receiver's answer. */
export const sendTestWebhookAction = validatedAction("webhooks.send-test", { schema: noInputSchema, role: "owner" }, async (_input, viewer) => {
  const result = await sendTestEvent(await getDb(), viewer.merchant.id);
  if (!result) return refuse("no_endpoint", "Save a callback URL first.");
  return ok(answerOf(result));
});

/** Invoice page (owners): the same event once more, now (receivers dedupe by its id). */
export const resendWebhookEventAction = validatedAction("webhooks.resend", { schema: resendEventSchema, role: "owner" }, async (input, viewer) => {
  const result = await resendEvent(await getDb(), viewer.merchant.id, input.eventId);
  if (result === null) throw new NotFoundError("This event does not exist.");
  if (result === "no_endpoint") return refuse("no_endpoint", "No callback URL is set: add one in Settings, then resend.");
  revalidatePath("/invoices/[id]", "page");
  return ok(answerOf(result));
});
