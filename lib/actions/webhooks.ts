"use server";

import { revalidatePath } from "next/cache";
import { personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { resendEvent, sendTestEvent, type DeliveryTry } from "@/lib/webhooks/deliver";
import { createEndpoint, deleteEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { endpointIdSchema, resendEventSchema, updateWebhookEndpointSchema, webhookEndpointSchema } from "@/lib/webhooks/schemas";
import { rotateSigningSecret } from "@/lib/webhooks/secrets";
import type { WebhookAnswer } from "@/lib/webhooks/views";
import { ok, refuse } from "@/lib/problems";
import { validatedAction } from "./validated-action";

const ENDPOINT_GONE = "This endpoint does not exist.";

/** A try as the page shows it: the receiver's answer, never the body or a secret. */
const answerOf = (result: DeliveryTry): WebhookAnswer => ({
  eventId: result.eventId,
  endpointId: result.endpointId,
  succeeded: result.succeeded,
  statusCode: result.statusCode,
  durationMs: result.durationMs,
  excerpt: result.excerpt,
  error: result.error,
});

const refreshPages = () => {
  revalidatePath("/webhooks");
  revalidatePath("/home");
};

/**
 * Webhooks page (owners): adds an endpoint after the full URL check (scheme, every resolved
 * address). `secret` is its signing secret: shown this once.
 */
export const createWebhookEndpointAction = validatedAction(
  "webhooks.create-endpoint",
  { schema: webhookEndpointSchema, can: "webhooks.manage" },
  async (input, viewer) => {
    const created = await createEndpoint(await getDb(), viewer.merchant.id, input);
    if (!created.ok) return created;
    await recordAudit(await getDb(), {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "webhook.endpoint_created",
      target: { type: "webhook", id: created.value.id },
      summary: `Endpoint added (${new URL(created.value.url).host})`,
    });
    refreshPages();
    return ok(created.value);
  },
);

/** Webhooks page (owners): changes an endpoint's URL, description, event types or enabled switch; its secret stays. */
export const updateWebhookEndpointAction = validatedAction(
  "webhooks.update-endpoint",
  { schema: updateWebhookEndpointSchema, can: "webhooks.manage" },
  async (input, viewer) => {
    const { endpointId, ...fields } = input;
    const updated = await updateEndpoint(await getDb(), viewer.merchant.id, endpointId, fields);
    if (updated === null) throw new NotFoundError(ENDPOINT_GONE);
    if (!updated.ok) return updated;
    await recordAudit(await getDb(), {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "webhook.endpoint_updated",
      target: { type: "webhook", id: endpointId },
      summary: `Endpoint changed (${new URL(updated.value.url).host})`,
    });
    refreshPages();
    return ok(updated.value);
  },
);

/** Webhooks page (owners): deletes an endpoint, its secrets and its pending deliveries; the log keeps its past tries. */
export const deleteWebhookEndpointAction = validatedAction(
  "webhooks.delete-endpoint",
  { schema: endpointIdSchema, can: "webhooks.manage" },
  async (input, viewer) => {
    if (!(await deleteEndpoint(await getDb(), viewer.merchant.id, input.endpointId))) throw new NotFoundError(ENDPOINT_GONE);
    await recordAudit(await getDb(), {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "webhook.endpoint_deleted",
      target: { type: "webhook", id: input.endpointId },
      summary: "Endpoint deleted",
    });
    refreshPages();
    return ok({ endpointId: input.endpointId });
  },
);

/** Webhooks page (owners): a new signing secret for one endpoint, shown once; the old one keeps signing for 24 hours. */
export const rotateWebhookSecretAction = validatedAction(
  "webhooks.rotate-secret",
  { schema: endpointIdSchema, can: "webhooks.manage" },
  async (input, viewer) => {
    const rotated = await rotateSigningSecret(await getDb(), viewer.merchant.id, input.endpointId);
    if (!rotated) throw new NotFoundError(ENDPOINT_GONE);
    await recordAudit(await getDb(), {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "webhook.secret_rotated",
      target: { type: "webhook", id: input.endpointId },
      summary: "Signing secret rolled",
    });
    revalidatePath("/webhooks");
    return ok({ secret: rotated.secret, previousRetiresAt: rotated.previousRetiresAt?.toISOString() ?? null });
  },
);

/** Webhooks page (owners): a `webhook.test` event with a sample invoice, delivered now to one endpoint; answers with the receiver's answer. */
export const sendTestWebhookAction = validatedAction("webhooks.send-test", { schema: endpointIdSchema, can: "webhooks.manage" }, async (input, viewer) => {
  const result = await sendTestEvent(await getDb(), viewer.merchant.id, input.endpointId);
  if (!result) throw new NotFoundError(ENDPOINT_GONE);
  revalidatePath("/webhooks");
  return ok(answerOf(result));
});

/** Event log and invoice page (owners): the same event once more, now, to one of its endpoints (receivers dedupe by its id). */
export const resendWebhookEventAction = validatedAction("webhooks.resend", { schema: resendEventSchema, can: "webhooks.manage" }, async (input, viewer) => {
  const result = await resendEvent(await getDb(), viewer.merchant.id, input.eventId, input.endpointId);
  if (result === "event_not_found") throw new NotFoundError("This event does not exist.");
  if (result === "endpoint_not_found") throw new NotFoundError(ENDPOINT_GONE);
  if (result === "not_a_target")
    return refuse("not_a_target", "This event was never sent to that endpoint (it was made before the endpoint, or not of a type it takes).");
  revalidatePath("/webhooks", "layout");
  revalidatePath("/invoices/[id]", "page");
  return ok(answerOf(result));
});
