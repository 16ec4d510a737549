import "server-only";
import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents, webhookEventTargets } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { retryDelaySeconds, RETRY_WINDOW_HOURS } from "@/lib/retry-schedules";
import { renderEventBody, sampleInvoiceSnapshot } from "./body";
import { findEndpoint } from "./endpoints";
import { TEST_EVENT_TYPE } from "../invoices/event-types";
import { signingSecrets } from "./secrets";
import { postWebhook, type SendOutcome } from "./send";
import { signatureHeader } from "./sign";
import { recordWebhookTry } from "@/lib/metrics/record";

/**
 * Delivery of merchant events, per endpoint: each event has one target row per endpoint it goes
 * to (webhook_event_targets), with its own state, tries and next try, so one failing endpoint
 * never holds another back. Automatic tries run as "webhook-deliver" jobs (one per target and
 * try): a 2xx within 10 s is success; anything else is retried on the webhook schedule
 * (lib/retry-schedules.ts) while the next try is within RETRY_WINDOW_HOURS of the event, after
 * that the target is failed. Every try is logged in webhook_deliveries (never the secret or the body).
 *
 * Order: an endpoint gets one invoice's events in sequence order. Jobs are queued after their
 * commits and taken by several workers at once, so the queue alone cannot promise it; instead a try
 * only goes when no earlier sequence of the same invoice is still pending for that endpoint, and
 * otherwise leaves the target untouched (deferred). Whatever settles a target (delivered, or given
 * up) then queues the next pending one of that invoice and endpoint (`releaseNext`). Different
 * invoices and endpoints never wait for each other.
 */

type DeliveryTrigger = "automatic" | "resend" | "test";
export type DeliveryTry = SendOutcome & { deliveryId: string; eventId: string; endpointId: string; url: string };

type EventRow = typeof webhookEvents.$inferSelect;
type Endpoint = { id: string; url: string };

/** Renders, signs with every valid secret of the endpoint, sends and logs one try. */
async function sendOnce(db: Db, event: EventRow, endpoint: Endpoint, trigger: DeliveryTrigger): Promise<DeliveryTry> {
  const body = renderEventBody(event);
  const secrets = await signingSecrets(db, endpoint.id);
  const outcome: SendOutcome =
    secrets.length === 0
      ? {
          succeeded: false,
          statusCode: null,
          durationMs: 0,
          excerpt: null,
          error: "Not sent: the endpoint has no signing secret; roll its secret to make one.",
        }
      : await postWebhook(endpoint.url, body, { "X-Signature": signatureHeader(secrets, body, Date.now() / 1000), "X-Event-Id": event.id });
  const deliveryId = newId("whd");
  await db.insert(webhookDeliveries).values({
    id: deliveryId,
    eventId: event.id,
    endpointId: endpoint.id,
    trigger,
    url: endpoint.url,
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    responseExcerpt: outcome.excerpt,
    error: outcome.error,
    succeeded: outcome.succeeded,
  });
  logger.info("webhook try", {
    eventId: event.id,
    endpointId: endpoint.id,
    trigger,
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    succeeded: outcome.succeeded,
  });
  return { ...outcome, deliveryId, eventId: event.id, endpointId: endpoint.id, url: endpoint.url };
}

const targetOf = (eventId: string, endpointId: string) => and(eq(webhookEventTargets.eventId, eventId), eq(webhookEventTargets.endpointId, endpointId));
const pendingTarget = (eventId: string, endpointId: string) => and(targetOf(eventId, endpointId), eq(webhookEventTargets.state, "pending"));

function queueTry(db: Db, target: { eventId: string; endpointId: string; invoiceId: string | null }, tryNo: number, startAfter: Date) {
  return enqueue(
    db,
    "webhook-deliver",
    { eventId: target.eventId, endpointId: target.endpointId, invoiceId: target.invoiceId, tryNo },
    { key: `${target.eventId}:${target.endpointId}:${tryNo}`, startAfter },
  );
}

type Sequenced = { id: string; invoiceId: string | null; sequence: number | null };

/** Whether an earlier event of the same invoice still waits to be delivered to this endpoint (test and connection events have no sequence and never wait). */
async function earlierPending(db: Db, event: Sequenced, endpointId: string): Promise<boolean> {
  if (event.invoiceId === null || event.sequence === null) return false;
  const [earlier] = await db
    .select({ eventId: webhookEventTargets.eventId })
    .from(webhookEventTargets)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookEventTargets.eventId))
    .where(
      and(
        eq(webhookEventTargets.endpointId, endpointId),
        eq(webhookEventTargets.state, "pending"),
        eq(webhookEvents.invoiceId, event.invoiceId),
        lt(webhookEvents.sequence, event.sequence),
      ),
    )
    .limit(1);
  return earlier !== undefined;
}

/**
 * After `event` is settled for this endpoint: the next pending event of its invoice there is
 * tried now. It may have been deferred while this one was pending, and its own job has run, so the
 * job key names the event it waited for (a fresh job; a second release is refused by the try's claim).
 * Read after the settle's write, so a later event that checked before it still finds it released.
 */
async function releaseNext(db: Db, event: Sequenced, endpointId: string): Promise<void> {
  if (event.invoiceId === null || event.sequence === null) return;
  const [next] = await db
    .select({ eventId: webhookEventTargets.eventId, tries: webhookEventTargets.tries })
    .from(webhookEventTargets)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookEventTargets.eventId))
    .where(
      and(
        eq(webhookEventTargets.endpointId, endpointId),
        eq(webhookEventTargets.state, "pending"),
        eq(webhookEvents.invoiceId, event.invoiceId),
        gt(webhookEvents.sequence, event.sequence),
      ),
    )
    .orderBy(asc(webhookEvents.sequence))
    .limit(1);
  if (!next) return;
  await enqueue(
    db,
    "webhook-deliver",
    { eventId: next.eventId, endpointId, invoiceId: event.invoiceId, tryNo: next.tries + 1 },
    { key: `${next.eventId}:${endpointId}:${next.tries + 1}:after:${event.id}` },
  ).catch((error: unknown) =>
    // The sweep queues it within a minute anyway: its target is pending and due.
    logger.error("next webhook not queued", { eventId: next.eventId, endpointId, error: error instanceof Error ? error.message : String(error) }),
  );
}

async function settle(db: Db, event: Sequenced, endpointId: string, state: "delivered" | "failed") {
  await db
    .update(webhookEventTargets)
    .set({ state, nextTryAt: null, updatedAt: sql`now()` })
    .where(pendingTarget(event.id, endpointId));
  await releaseNext(db, event, endpointId);
}

/**
 * Automatic try number `tryNo` of an event to one endpoint (the "webhook-deliver" job).
 * Idempotent: a settled target, or a try already made (its `tries` has reached it), does nothing;
 * the try is claimed by moving `tries` from tryNo-1 to tryNo, so two runs of one job send once.
 * An endpoint disabled since the event was made is not sent to: its delivery fails at once (a
 * Resend after enabling it sends the event). While an earlier event of the same invoice is pending
 * for this endpoint the try waits (nothing changes; that event's settling queues this one).
 */
export async function deliverAutomaticTry(db: Db, eventId: string, endpointId: string, tryNo: number, now = new Date()): Promise<DeliveryTry | null> {
  const [found] = await db
    .select({
      event: webhookEvents,
      target: webhookEventTargets,
      endpoint: { id: webhookEndpoints.id, url: webhookEndpoints.url, enabled: webhookEndpoints.enabled },
    })
    .from(webhookEventTargets)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookEventTargets.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookEventTargets.endpointId))
    .where(targetOf(eventId, endpointId))
    .limit(1);
  if (!found || found.target.state !== "pending" || found.target.tries >= tryNo) return null;
  const { event, endpoint } = found;
  const deadline = event.createdAt.getTime() + RETRY_WINDOW_HOURS * 3600_000;
  if (!endpoint.enabled || now.getTime() > deadline) {
    await settle(db, event, endpointId, "failed");
    return null;
  }
  if (await earlierPending(db, event, endpointId)) return null;
  // The claim also moves next_try_at past this try, so a crash mid-send is retried by the sweep, not at once.
  const next = new Date(now.getTime() + retryDelaySeconds(tryNo) * 1000);
  const claimed = await db
    .update(webhookEventTargets)
    .set({ tries: tryNo, nextTryAt: next, updatedAt: sql`now()` })
    .where(and(pendingTarget(eventId, endpointId), eq(webhookEventTargets.tries, tryNo - 1)))
    .returning({ eventId: webhookEventTargets.eventId });
  if (claimed.length === 0) return null;

  const result = await sendOnce(db, event, endpoint, "automatic");
  recordWebhookTry(result.succeeded, event.createdAt);
  if (result.succeeded) {
    await db
      .update(webhookEventTargets)
      .set({ state: "delivered", nextTryAt: null, updatedAt: sql`now()` })
      .where(targetOf(eventId, endpointId));
    await releaseNext(db, event, endpointId);
  } else if (next.getTime() <= deadline) {
    // A resend may have delivered it meanwhile: only a still pending target waits for its next try.
    const waiting = await db
      .update(webhookEventTargets)
      .set({ nextTryAt: next, updatedAt: sql`now()` })
      .where(pendingTarget(eventId, endpointId))
      .returning({ eventId: webhookEventTargets.eventId });
    if (waiting.length > 0) {
      await queueTry(db, { eventId, endpointId, invoiceId: event.invoiceId }, tryNo + 1, next).catch((error: unknown) =>
        logger.error("webhook retry not queued", { eventId, endpointId, error: error instanceof Error ? error.message : String(error) }),
      );
    }
  } else {
    await settle(db, event, endpointId, "failed");
  }
  return result;
}

/** A job queued before endpoints existed names no endpoint: its try goes to each endpoint of the event. */
export async function deliverAutomaticTryToAll(db: Db, eventId: string, tryNo: number): Promise<void> {
  const targets = await db.select({ endpointId: webhookEventTargets.endpointId }).from(webhookEventTargets).where(eq(webhookEventTargets.eventId, eventId));
  for (const target of targets) await deliverAutomaticTry(db, eventId, target.endpointId, tryNo);
}

export type ResendOutcome = DeliveryTry | "event_not_found" | "endpoint_not_found" | "not_a_target";

/**
 * "Resend": the same event (same id, so receivers dedupe it) once more to one of its endpoints,
 * now, logged as a resend. Only an endpoint the event was sent to (one made later never gets
 * it). A success settles that delivery as delivered (its pending retries then do nothing); a
 * failure leaves its state and schedule as they were.
 */
export async function resendEvent(db: Db, merchantId: string, eventId: string, endpointId: string): Promise<ResendOutcome> {
  const [event] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.merchantId, merchantId)))
    .limit(1);
  if (!event) return "event_not_found";
  const endpoint = await findEndpoint(db, merchantId, endpointId);
  if (!endpoint) return "endpoint_not_found";
  const [target] = await db.select({ state: webhookEventTargets.state }).from(webhookEventTargets).where(targetOf(eventId, endpointId)).limit(1);
  if (!target) return "not_a_target";
  const result = await sendOnce(db, event, endpoint, "resend");
  if (result.succeeded) {
    await db
      .update(webhookEventTargets)
      .set({ state: "delivered", nextTryAt: null, updatedAt: sql`now()` })
      .where(targetOf(eventId, endpointId));
    await releaseNext(db, event, endpointId);
  }
  return result;
}

/**
 * "Send test event": a `webhook.test` event with a sample invoice, to one endpoint (whatever
 * types it chose, enabled or not), sent at once in this call (no retries) so the owner sees the
 * receiver's answer. Null when the endpoint is not the merchant's.
 */
export async function sendTestEvent(db: Db, merchantId: string, endpointId: string): Promise<DeliveryTry | null> {
  const endpoint = await findEndpoint(db, merchantId, endpointId);
  if (!endpoint) return null;
  const event = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEvents)
      .values({ id: newId("evt"), merchantId, invoiceId: null, type: TEST_EVENT_TYPE, invoice: sampleInvoiceSnapshot(merchantId) })
      .returning();
    await tx.insert(webhookEventTargets).values({ eventId: row!.id, endpointId, merchantId, state: "pending", tries: 1, nextTryAt: null });
    return row!;
  });
  const result = await sendOnce(db, event, endpoint, "test");
  await db
    .update(webhookEventTargets)
    .set({ state: result.succeeded ? "delivered" : "failed", updatedAt: sql`now()` })
    .where(targetOf(event.id, endpointId));
  return result;
}

/**
 * The sweep (every minute in each worker): queues the next try of pending deliveries whose time
 * has come and that have no job (a crash between the change and the queuing, or after a claim).
 * The job key `${eventId}:${endpointId}:${tryNo}` makes queuing one that exists harmless. Returns
 * how many it queued.
 */
export async function queueDueTries(db: Db, now = new Date(), limit = 200): Promise<number> {
  const due = await db
    .select({
      eventId: webhookEventTargets.eventId,
      endpointId: webhookEventTargets.endpointId,
      invoiceId: webhookEvents.invoiceId,
      tries: webhookEventTargets.tries,
    })
    .from(webhookEventTargets)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookEventTargets.eventId))
    .where(
      and(
        eq(webhookEventTargets.state, "pending"),
        sql`${webhookEventTargets.nextTryAt} <= ${now.toISOString()}::timestamptz`,
        sql`${webhookEvents.type} <> ${TEST_EVENT_TYPE}`,
      ),
    )
    .orderBy(webhookEventTargets.nextTryAt)
    .limit(limit);
  let queued = 0;
  for (const target of due) {
    if (await queueTry(db, target, target.tries + 1, now)) queued += 1;
  }
  return queued;
}
