import "server-only";
import { and, asc, eq, like } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import type { DisputeStatus } from "@/lib/db/enums";
import { disputes, webhookEvents } from "@/lib/db/schema";

/**
 * The invoice page's timeline steps of its disputes: each step the provider reported (opened,
 * under review, won, lost, accepted), read from the dispute.* events that recorded them, and the
 * merchant's own answers (evidence submitted, dispute accepted), oldest first.
 */
export type DisputeStep = {
  disputeId: string;
  step: "opened" | "evidence_submitted" | "conceded" | Exclude<DisputeStatus, "needs_response">;
  at: string;
  amount: string;
  currency: string;
};

export async function readDisputeSteps(db: Db, merchantId: string, invoiceId: string): Promise<DisputeStep[]> {
  const [rows, events] = await Promise.all([
    db
      .select()
      .from(disputes)
      .where(and(eq(disputes.merchantId, merchantId), eq(disputes.invoiceId, invoiceId))),
    db
      .select({ type: webhookEvents.type, dispute: webhookEvents.dispute, createdAt: webhookEvents.createdAt })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.merchantId, merchantId), eq(webhookEvents.invoiceId, invoiceId), like(webhookEvents.type, "dispute.%")))
      .orderBy(asc(webhookEvents.sequence)),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const steps: DisputeStep[] = [];
  for (const event of events) {
    const snapshot = event.dispute as { id?: string; status?: DisputeStatus } | null;
    const row = snapshot?.id ? byId.get(snapshot.id) : undefined;
    if (!row || !snapshot?.status) continue;
    const step = event.type === "dispute.created" ? "opened" : snapshot.status === "needs_response" ? undefined : snapshot.status;
    if (step) steps.push({ disputeId: row.id, step, at: event.createdAt.toISOString(), amount: row.amount, currency: row.currency });
  }
  for (const row of rows) {
    if (row.submittedAt)
      steps.push({ disputeId: row.id, step: "evidence_submitted", at: row.submittedAt.toISOString(), amount: row.amount, currency: row.currency });
    if (row.acceptedAt) steps.push({ disputeId: row.id, step: "conceded", at: row.acceptedAt.toISOString(), amount: row.amount, currency: row.currency });
  }
  return steps.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
