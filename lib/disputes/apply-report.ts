import "server-only";
import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { noteDisputeRate } from "@/lib/analytics/connection-health";
import { putInDispute, takeOutDispute } from "@/lib/analytics/rollups";
import type { Db } from "@/lib/db/client";
import type { DisputeStatus } from "@/lib/db/enums";
import { disputes, invoiceAttempts, invoices, merchants, users } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import type { InvoiceRow } from "@/lib/invoices/store";
import { queueEventDelivery } from "@/lib/invoices/status";
import { logger } from "@/lib/logger";
import { sendMailInBackground } from "@/lib/mail";
import { disputeDeadlineMail, disputeOpenedMail } from "@/lib/mail/messages";
import { formatMinor } from "@/lib/money";
import type { Mode } from "@/lib/providers";
import type { DisputeReport } from "@/lib/providers/kit/adapter";
import { invoiceModeRefusal } from "@/lib/providers/kit/mode-guard";
import { DISPUTE_REASON_WORDS } from "./contract";
import { recordDisputeEvent, type DisputeEventType, type QueuedDisputeEvent } from "./events";
import { disputedTotal, isOpenDispute, type DisputeRow } from "./store";

/**
 * The one place a provider's word changes a dispute, whether it came by callback, as the answer to
 * a dispute status request, or as the answer to Submit or Accept. A dispute moves only forward
 * (needs_response → under_review → won | lost | accepted; needs_response straight to a decision);
 * a closed one stays closed, and an older report never moves it back. The dispute, the invoice's
 * disputed amount and the webhook event are written in one transaction holding the invoice's row.
 */

/** How far along a status is: a report moves a dispute only to a later step. */
const STEP: Readonly<Record<DisputeStatus, number>> = { needs_response: 0, under_review: 1, won: 2, lost: 2, accepted: 2 };

/** Whether a dispute in `from` may move to `to` (the order above; closed is final). */
function disputeMayMove(from: DisputeStatus, to: DisputeStatus): boolean {
  return STEP[to] > STEP[from];
}

/** The connection a report came through: its id, merchant and mode. */
export type ReportingConnection = { id: string; merchantId: string; mode: Mode };

/** The disputed payment: a succeeded payment attempt of this connection. */
export type DisputedPayment = { invoiceId: string; attemptId: string; testMode: boolean };

/**
 * The payment a report is about, among the connection's succeeded payment attempts: by the key the
 * attempt was sent with (its id at the provider), else the provider's reference of the payment.
 */
export async function findDisputedPayment(db: Db, connectionId: string, report: DisputeReport): Promise<DisputedPayment | undefined> {
  const matches: SQL[] = [];
  if (report.paymentKey) matches.push(eq(invoiceAttempts.idempotencyKey, report.paymentKey));
  if (report.paymentReference) matches.push(eq(invoiceAttempts.providerReference, report.paymentReference));
  if (matches.length === 0) return undefined;
  const [found] = await db
    .select({ attemptId: invoiceAttempts.id, invoiceId: invoiceAttempts.invoiceId, testMode: invoices.testMode })
    .from(invoiceAttempts)
    .innerJoin(invoices, eq(invoices.id, invoiceAttempts.invoiceId))
    .where(and(eq(invoiceAttempts.connectionId, connectionId), eq(invoiceAttempts.status, "succeeded"), eq(invoices.direction, "payment"), or(...matches)))
    .limit(1);
  return found;
}

export type ApplyReportResult =
  | { kind: "created" | "updated"; dispute: DisputeRow }
  | { kind: "unchanged"; dispute: DisputeRow; reason: string }
  | { kind: "not_found"; reason: string }
  | { kind: "mode_mismatch"; reason: string };

type Written = { dispute: DisputeRow; kind: "created" | "updated"; events: QueuedDisputeEvent[] } | { dispute: DisputeRow; kind: "unchanged"; reason: string };

/** The event a change writes: closed when it reached a decision, else created or updated. */
function eventTypeOf(kind: "created" | "updated", row: DisputeRow): DisputeEventType {
  if (kind === "created") return "dispute.created";
  return isOpenDispute(row.status) ? "dispute.updated" : "dispute.closed";
}

/**
 * Applies a report to the dispute it names (made on the first report), finding the payment first.
 * `payment` may be given when the caller found it already (a callback, which stores it first).
 */
export async function applyDisputeReport(
  db: Db,
  connection: ReportingConnection,
  report: DisputeReport,
  reason: string,
  payment?: DisputedPayment,
): Promise<ApplyReportResult> {
  const found = payment ?? (await findDisputedPayment(db, connection.id, report));
  if (!found) return { kind: "not_found", reason: "no succeeded payment of this connection matches the dispute" };
  // A sandbox's word never touches a live payment, nor a live provider's a test one.
  const wrongMode = invoiceModeRefusal(found.testMode, connection.mode);
  if (wrongMode) return { kind: "mode_mismatch", reason: wrongMode };

  const written = await db.transaction(async (tx): Promise<Written | undefined> => {
    const [invoice] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, found.invoiceId), eq(invoices.merchantId, connection.merchantId)))
      .for("update");
    if (!invoice) return undefined;
    const [existing] = await tx
      .select()
      .from(disputes)
      .where(and(eq(disputes.connectionId, connection.id), eq(disputes.providerReference, report.disputeReference)))
      .for("update");
    const closing = !isOpenDispute(report.status);
    let row: DisputeRow;
    let kind: "created" | "updated";
    if (!existing) {
      const amount = formatMinor(report.amountMinor, report.currency);
      const [inserted] = await tx
        .insert(disputes)
        .values({
          id: newId("dp"),
          merchantId: invoice.merchantId,
          invoiceId: invoice.id,
          connectionId: connection.id,
          testMode: invoice.testMode,
          providerReference: report.disputeReference,
          amount,
          amountMinor: report.amountMinor,
          currency: report.currency,
          reason: report.reason,
          providerReason: report.providerReason,
          status: report.status,
          evidenceDueBy: report.evidenceDueBy,
          ...(closing ? { closedAt: sql`now()` } : {}),
        })
        .returning();
      row = inserted!;
      kind = "created";
    } else {
      if (!disputeMayMove(existing.status, report.status)) {
        return { dispute: existing, kind: "unchanged", reason: `the dispute is already ${existing.status}; a report of ${report.status} does not move it` };
      }
      await takeOutDispute(tx, existing.id);
      const [updated] = await tx
        .update(disputes)
        .set({ status: report.status, updatedAt: sql`now()`, ...(closing ? { closedAt: sql`now()` } : {}) })
        .where(eq(disputes.id, existing.id))
        .returning();
      row = updated!;
      kind = "updated";
    }
    await putInDispute(tx, row.id);
    const disputedAmountMinor = await disputedTotal(tx as unknown as Db, invoice.id);
    await tx.update(invoices).set({ disputedAmountMinor }).where(eq(invoices.id, invoice.id));
    const current: InvoiceRow = { ...invoice, disputedAmountMinor };
    const events = [await recordDisputeEvent(tx, eventTypeOf(kind, row), row, current)];
    // A dispute first reported already decided is opened and closed at once: both events.
    if (kind === "created" && closing) events.push(await recordDisputeEvent(tx, "dispute.closed", row, current));
    // The connection's health reads its dispute rate.
    const health = kind === "created" ? await noteDisputeRate(tx, connection.id) : undefined;
    if (health) events.push({ queue: (db) => queueEventDelivery(db, null, health) });
    return { dispute: row, kind, events };
  });
  if (!written) return { kind: "not_found", reason: "the disputed invoice is gone" };
  if (written.kind === "unchanged") return { kind: "unchanged", dispute: written.dispute, reason: written.reason };
  for (const event of written.events) await event.queue(db);
  logger.info("dispute report applied", {
    disputeId: written.dispute.id,
    invoiceId: written.dispute.invoiceId,
    status: written.dispute.status,
    kind: written.kind,
    reason,
  });
  if (written.kind === "created") await mailOwners(db, written.dispute, "opened");
  return { kind: written.kind, dispute: written.dispute };
}

/** The facts the dispute e-mails tell. */
async function mailFacts(db: Db, dispute: DisputeRow) {
  const [merchant] = await db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, dispute.merchantId));
  const owners = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.merchantId, dispute.merchantId), eq(users.role, "owner")));
  return {
    owners: owners.map((owner) => owner.email),
    facts: {
      merchantName: merchant?.name ?? "your business",
      disputeId: dispute.id,
      invoiceId: dispute.invoiceId,
      amount: dispute.amount,
      currency: dispute.currency,
      reason: DISPUTE_REASON_WORDS[dispute.reason],
      dueBy: dispute.evidenceDueBy,
      testMode: dispute.testMode,
    },
  };
}

/**
 * Tells each owner of the merchant (through SMTP, or the outbox without it): a dispute opened, or
 * its deadline in three days. Sent in the background, so a slow mail server never holds a
 * provider's callback or a sweep; a mail that cannot be sent is logged, the dispute stands regardless.
 */
export async function mailOwners(db: Db, dispute: DisputeRow, about: "opened" | "deadline"): Promise<void> {
  const { owners, facts } = await mailFacts(db, dispute);
  for (const to of owners) {
    sendMailInBackground(db, about === "opened" ? disputeOpenedMail(to, facts) : disputeDeadlineMail(to, facts), `dispute e-mail (${about}) not sent`);
  }
}
