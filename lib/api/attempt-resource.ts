import { formatMinor } from "@/lib/money";
import { ATTEMPT_TYPE, type AttemptResource } from "../invoices/contract/resource-schemas";
import type { AttemptRow, PayoutPartRow } from "../processing/attempts";

/**
 * An attempt as the API shows it: what the provider said and when, never its exchange
 * log (that stays on the invoice page, for people of the merchant).
 */
export function toAttemptResource(row: AttemptRow, currency: string, parts: readonly PayoutPartRow[]): AttemptResource {
  const own = parts.filter((part) => part.attemptId === row.id);
  return {
    id: row.id,
    type: ATTEMPT_TYPE,
    attributes: {
      seq: row.seq,
      reason: row.reason,
      status: row.status,
      resolution: row.resolution,
      provider_reference: row.providerReference,
      processed_amount: row.processedAmountMinor === null ? null : formatMinor(row.processedAmountMinor, currency),
      message: row.message,
      started: row.startedAt.toISOString(),
      finished: row.finishedAt?.toISOString() ?? null,
      duration_ms: row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
      ...(own.length === 0
        ? {}
        : {
            payout_parts: own.map((part) => ({
              id: part.id,
              amount: formatMinor(part.amountMinor, currency),
              status: part.status,
              provider_reference: part.providerReference,
            })),
          }),
    },
    relationships: {
      connection: { data: { type: "connection", id: row.connectionId } },
    },
  };
}
