import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { routingReasonText } from "@/lib/routing/reason";
import type { AttemptStatus, PayoutPartStatus, Resolution, RoutingReason } from "@/lib/db/enums";
import { connections, invoiceAttempts, payoutParts } from "@/lib/db/schema";
import { redact } from "@/lib/logger";
import { listRecordsByIdempotencyKeys, listRecordsByReferences, type SandboxRecord } from "@/lib/sandbox/records";
import { formatMinor } from "@/lib/money";
import { toDashboardConnection, type DashboardConnection } from "./invoice-view";

/**
 * The invoice page's attempts: one entry per try against one connection, with what the
 * provider said, when, and its exchange log as stored (redacted before it was saved: no secrets,
 * no full card numbers). Plain JSON for the page.
 */
export type DashboardExchange = {
  at: string;
  method: string;
  url: string;
  status: number | null;
  durationMs: number;
  error?: string;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  responseBody: unknown;
};

type DashboardPayoutPart = { id: string; seq: number; amount: string; status: PayoutPartStatus; providerReference: string | null };

/**
 * What the provider's sandbox recorded on its side (test mode only). Stored masked and redacted;
 * the request passes `redact` once more here, so a secret-named key or a card-shaped digit run
 * cannot reach the page even from an older record.
 */
export type DashboardSandboxRecord = {
  operation: string;
  status: string;
  amount: string | null;
  currency: string | null;
  reference: string;
  request: unknown;
};

export type DashboardAttempt = {
  id: string;
  seq: number;
  connection: DashboardConnection | null;
  reason: RoutingReason;
  /** Why this attempt went to its connection, in the invoice's words (the rule that chose the first one). */
  reasonText: string;
  status: AttemptStatus;
  resolution: Resolution | null;
  providerReference: string | null;
  processedAmount: string | null;
  message: string | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  exchanges: DashboardExchange[];
  parts: DashboardPayoutPart[];
  sandboxRecord: DashboardSandboxRecord | null;
};

export async function listDashboardAttempts(
  db: Db,
  merchantId: string,
  invoice: { id: string; currency: string; routing?: { rule: { position: number; name: string } | null } | null },
): Promise<DashboardAttempt[]> {
  const rows = await db
    .select({
      attempt: invoiceAttempts,
      connection: {
        id: connections.id,
        label: connections.label,
        provider: connections.provider,
        kind: connections.kind,
        mode: connections.mode,
        deletedAt: connections.deletedAt,
      },
    })
    .from(invoiceAttempts)
    .leftJoin(connections, and(eq(connections.id, invoiceAttempts.connectionId), eq(connections.merchantId, merchantId)))
    .where(eq(invoiceAttempts.invoiceId, invoice.id))
    .orderBy(asc(invoiceAttempts.seq));
  if (rows.length === 0) return [];
  const parts = await db.select().from(payoutParts).where(eq(payoutParts.invoiceId, invoice.id)).orderBy(asc(payoutParts.seq));
  const records = await findSandboxRecords(db, rows);
  return rows.map(({ attempt, connection }) => ({
    id: attempt.id,
    seq: attempt.seq,
    connection: toDashboardConnection(connection),
    reason: attempt.reason,
    reasonText: routingReasonText(attempt.reason, invoice.routing?.rule),
    status: attempt.status,
    resolution: attempt.resolution,
    providerReference: attempt.providerReference,
    processedAmount: attempt.processedAmountMinor === null ? null : formatMinor(attempt.processedAmountMinor, invoice.currency),
    message: attempt.message,
    startedAt: attempt.startedAt.toISOString(),
    finishedAt: attempt.finishedAt?.toISOString() ?? null,
    durationMs: attempt.finishedAt ? attempt.finishedAt.getTime() - attempt.startedAt.getTime() : null,
    exchanges: attempt.exchanges as DashboardExchange[],
    parts: parts
      .filter((part) => part.attemptId === attempt.id)
      .map((part) => ({
        id: part.id,
        seq: part.seq,
        amount: formatMinor(part.amountMinor, invoice.currency),
        status: part.status,
        providerReference: part.providerReference,
      })),
    sandboxRecord: toDashboardRecord(records.get(attempt.id)),
  }));
}

type AttemptRow = {
  attempt: { id: string; idempotencyKey: string; providerReference: string | null };
  connection: { id: string; provider: string; mode: string } | null;
};

/**
 * Each test-mode attempt's sandbox record, by the attempt's idempotency key (the attempt id) and
 * else by its provider reference, made by the attempt's own connection: a sandbox keeps another
 * account's request with the same key apart. Live attempts have none: their provider keeps its own.
 */
async function findSandboxRecords(db: Db, rows: readonly AttemptRow[]): Promise<Map<string, SandboxRecord>> {
  const found = new Map<string, SandboxRecord>();
  const tested = rows.flatMap(({ attempt, connection }) =>
    connection?.mode === "test" ? [{ attempt, provider: connection.provider, connectionId: connection.id }] : [],
  );
  if (tested.length === 0) return found;
  const byKey = await listRecordsByIdempotencyKeys(
    db,
    tested.map(({ attempt }) => attempt.idempotencyKey),
  );
  const own = (record: SandboxRecord, provider: string, connectionId: string) => record.provider === provider && record.connectionId === connectionId;
  for (const { attempt, provider, connectionId } of tested) {
    const record = byKey.find((r) => own(r, provider, connectionId) && r.idempotencyKey === attempt.idempotencyKey);
    if (record) found.set(attempt.id, record);
  }
  for (const { attempt, provider, connectionId } of tested) {
    if (found.has(attempt.id) || !attempt.providerReference) continue;
    const [record] = await listRecordsByReferences(db, provider, [attempt.providerReference]);
    if (record && own(record, provider, connectionId)) found.set(attempt.id, record);
  }
  return found;
}

function toDashboardRecord(record: SandboxRecord | undefined): DashboardSandboxRecord | null {
  if (!record) return null;
  return {
    operation: record.operation,
    status: record.status,
    amount: record.amountMinor === null || !record.currency ? null : formatMinor(record.amountMinor, record.currency),
    currency: record.currency,
    reference: record.reference,
    request: redact(record.request),
  };
}
