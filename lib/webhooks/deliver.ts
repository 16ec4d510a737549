import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants, webhookDeliveries, webhookEvents } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { retryDelaySeconds, RETRY_WINDOW_HOURS } from "@/lib/retry-schedules";
import { renderEventBody, sampleInvoiceSnapshot, TEST_EVENT_TYPE } from "./body";
import { signingSecrets } from "./secrets";
import { postWebhook, type SendOutcome } from "./send";
import { signatureHeader } from "./sign";

/**
 * Delivery of merchant events. Automatic tries run as "webhook-deliver" jobs: a 2xx within 10 s is
 * success; anything else is retried on the webhook schedule (lib/retry-schedules.ts) while the next
 * try is within RETRY_WINDOW_HOURS of the event, after that the event is failed. Every try is logged
 * in webhook_deliveries (never the secret or the body).
 */

export type DeliveryTrigger = "automatic" | "resend" | "test";
export type DeliveryTry = SendOutcome & { deliveryId: string; eventId: string; url: string };

type EventRow = typeof webhookEvents.$inferSelect;

/** Renders, signs with every valid secret, sends and logs one try. */
async function sendOnce(db: Db, event: EventRow, url: string, trigger: DeliveryTrigger): Promise<DeliveryTry> {
  const body = renderEventBody(event);
  const secrets = await signingSecrets(db, event.merchantId);
  const outcome: SendOutcome =
    secrets.length === 0
      ? { succeeded: false, statusCode: null, durationMs: 0, excerpt: null, error: "Not sent: no signing secret; save the callback URL in Settings to make one." }
      : await postWebhook(url, body, { "X-Signature": signatureHeader(secrets, body, Date.now() / 1000), "X-Event-Id": event.id });
  const deliveryId = newId("whd");
  await db.insert(webhookDeliveries).values({
    id: deliveryId,
    eventId: event.id,
    trigger,
    url,
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    responseExcerpt: outcome.excerpt,
    error: outcome.error,
    succeeded: outcome.succeeded,
  });
  logger.info("webhook try", { eventId: event.id, trigger, statusCode: outcome.statusCode, durationMs: outcome.durationMs, succeeded: outcome.succeeded });
  return { ...outcome, deliveryId, eventId: event.id, url };
}

async function merchantUrl(db: Db, merchantId: string): Promise<string | null> {
  const [row] = await db.select({ url: merchants.webhookUrl }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row?.url ?? null;
}

function queueTry(db: Db, event: Pick<EventRow, "id" | "invoiceId">, tryNo: number, startAfter: Date) {
  return enqueue(db, "webhook-deliver", { eventId: event.id, invoiceId: event.invoiceId, tryNo }, { key: `${event.id}:${tryNo}`, startAfter });
}

/**
 * Automatic try number `tryNo` of an event (the "webhook-deliver" job). Idempotent: a settled
 * event, or a try already made (the event's `tries` has reached it), does nothing; the try is
 * claimed by moving `tries` from tryNo-1 to tryNo, so two runs of one job send once.
 */
export async function deliverAutomaticTry(db: Db, eventId: string, tryNo: number, now = new Date()): Promise<DeliveryTry | null> {
  const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)).limit(1);
  if (!event || event.deliveryState !== "pending" || event.tries >= tryNo) return null;
  const deadline = event.createdAt.getTime() + RETRY_WINDOW_HOURS * 3600_000;
  const url = await merchantUrl(db, event.merchantId);
  if (!url) {
    await db
      .update(webhookEvents)
      .set({ deliveryState: "no_endpoint", nextTryAt: null, updatedAt: sql`now()` })
      .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.deliveryState, "pending")));
    return null;
  }
  if (now.getTime() > deadline) {
    await db
      .update(webhookEvents)
      .set({ deliveryState: "failed", nextTryAt: null, updatedAt: sql`now()` })
      .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.deliveryState, "pending")));
    return null;
  }
  // The claim also moves next_try_at past this try, so a crash mid-send is retried by the sweep, not at once.
  const next = new Date(now.getTime() + retryDelaySeconds(tryNo) * 1000);
  const claimed = await db
    .update(webhookEvents)
    .set({ tries: tryNo, nextTryAt: next, updatedAt: sql`now()` })
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.deliveryState, "pending"), eq(webhookEvents.tries, tryNo - 1)))
    .returning({ id: webhookEvents.id });
  if (claimed.length === 0) return null;

  const result = await sendOnce(db, event, url, "automatic");
  if (result.succeeded) {
    await db.update(webhookEvents).set({ deliveryState: "delivered", nextTryAt: null, updatedAt: sql`now()` }).where(eq(webhookEvents.id, eventId));
  } else if (next.getTime() <= deadline) {
    // A resend may have delivered it meanwhile: only a still pending event waits for its next try.
    const waiting = await db
      .update(webhookEvents)
      .set({ nextTryAt: next, updatedAt: sql`now()` })
      .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.deliveryState, "pending")))
      .returning({ id: webhookEvents.id });
    if (waiting.length > 0) {
      await queueTry(db, event, tryNo + 1, next).catch((error: unknown) =>
        logger.error("webhook retry not queued", { eventId, error: error instanceof Error ? error.message : String(error) }),
      );
    }
  } else {
    await db
      .update(webhookEvents)
      .set({ deliveryState: "failed", nextTryAt: null, updatedAt: sql`now()` })
      .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.deliveryState, "pending")));
  }
  return result;
}

/**
 * "Resend" on the invoice page: the same event (same id, so receivers dedupe it) once more, now,
 * logged as a resend. A success settles the event as delivered (pending retries then do nothing);
 * a failure leaves its state and schedule as they were. Null when the event is not the merchant's.
 */
export async function resendEvent(db: Db, merchantId: string, eventId: string): Promise<DeliveryTry | "no_endpoint" | null> {
  const [event] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.merchantId, merchantId)))
    .limit(1);
  if (!event) return null;
  const url = await merchantUrl(db, merchantId);
  if (!url) return "no_endpoint";
  const result = await sendOnce(db, event, url, "resend");
  if (result.succeeded) {
    await db.update(webhookEvents).set({ deliveryState: "delivered", nextTryAt: null, updatedAt: sql`now()` }).where(eq(webhookEvents.id, eventId));
  }
  return result;
}

/**
 * "Send test event" in Settings: a `webhook.test` event with a sample invoice, sent at once in
 * this call (no retries) so the owner sees the receiver's answer. Null without a callback URL.
 */
export async function sendTestEvent(db: Db, merchantId: string): Promise<DeliveryTry | null> {
  const url = await merchantUrl(db, merchantId);
  if (!url) return null;
  const [event] = await db
    .insert(webhookEvents)
    .values({ id: newId("evt"), merchantId, invoiceId: null, type: TEST_EVENT_TYPE, invoice: sampleInvoiceSnapshot(merchantId), deliveryState: "pending", tries: 1 })
    .returning();
  const result = await sendOnce(db, event!, url, "test");
  await db
    .update(webhookEvents)
    .set({ deliveryState: result.succeeded ? "delivered" : "failed", updatedAt: sql`now()` })
    .where(eq(webhookEvents.id, event!.id));
  return result;
}

/**
 * The sweep (every minute in each worker): queues the next try of pending events whose time has
 * come and that have no job (a crash between the change and the queuing, or after a claim). The
 * job key `${eventId}:${tryNo}` makes queuing one that exists harmless. Returns how many it queued.
 */
export async function queueDueTries(db: Db, now = new Date(), limit = 200): Promise<number> {
  const due = await db
    .select({ id: webhookEvents.id, invoiceId: webhookEvents.invoiceId, tries: webhookEvents.tries })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.deliveryState, "pending"), sql`${webhookEvents.nextTryAt} <= ${now.toISOString()}::timestamptz`, sql`${webhookEvents.type} <> ${TEST_EVENT_TYPE}`))
    .orderBy(webhookEvents.nextTryAt)
    .limit(limit);
  let queued = 0;
  for (const event of due) {
    if (await queueTry(db, event, event.tries + 1, now)) queued += 1;
  }
  return queued;
}
