import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { alerts, merchants, users } from "@/lib/db/schema";
import { recordMerchantEvent, type RecordedEvent } from "@/lib/invoices/events";
import { queueEventDelivery } from "@/lib/invoices/status";
import { sendMailInBackground } from "@/lib/mail";
import { alertMail } from "@/lib/mail/messages";

/**
 * How an alert reaches people, once when it fires and once when it resolves: the signed webhook
 * event `alert.triggered` / `alert.resolved` (written in the transaction that opens or resolves
 * the alert, delivered after the commit like every event) and an e-mail to each owner (sent in
 * the background: a slow mail server never holds the evaluation).
 */
export const ALERT_EVENT_TYPES = ["alert.triggered", "alert.resolved"] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

export type AlertRow = typeof alerts.$inferSelect;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The alert as its events keep it. */
function snapshotAlert(row: AlertRow): Record<string, unknown> {
  return {
    id: row.id,
    rule: row.rule,
    subject: row.subject,
    mode: row.mode,
    title: row.title,
    detail: row.detail,
    link: row.link,
    openedAt: row.openedAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedDetail: row.resolvedDetail,
  };
}

/** In the transaction that opened or resolved the alert: its event. */
export function recordAlertEvent(tx: Tx, type: AlertEventType, row: AlertRow): Promise<RecordedEvent> {
  return recordMerchantEvent(tx, { merchantId: row.merchantId, type, alert: snapshotAlert(row) });
}

/** After the commit: the event's deliveries queued, and the owners' e-mails on their way. */
export async function announceAlert(db: Db, type: AlertEventType, row: AlertRow, event: RecordedEvent): Promise<void> {
  await queueEventDelivery(db, null, event);
  const [merchant] = await db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, row.merchantId));
  const owners = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.merchantId, row.merchantId), eq(users.role, "owner")));
  const about = type === "alert.triggered" ? "triggered" : "resolved";
  const facts = {
    merchantName: merchant?.name ?? "your business",
    title: row.title,
    detail: row.detail,
    mode: row.mode,
    link: row.link,
    resolvedDetail: row.resolvedDetail,
  };
  for (const { email } of owners) sendMailInBackground(db, alertMail(email, about, facts), `alert e-mail (${about}) not sent`);
}
