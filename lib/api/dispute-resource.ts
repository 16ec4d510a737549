import type { z } from "zod";
import type { disputeResourceSchema } from "@/lib/disputes/resource-schemas";
import type { DisputeRow } from "@/lib/disputes/store";

export type DisputeResource = z.infer<typeof disputeResourceSchema>;

export const DISPUTES_PATH = "/api/commerce/disputes";
const disputePath = (id: string) => `${DISPUTES_PATH}/${id}`;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const maybeIso = (value: Date | string | null) => (value === null ? null : iso(value));

/** The JSON:API dispute (lib/disputes/resource-schemas.ts). */
export function toDisputeResource(row: DisputeRow, baseUrl: string): DisputeResource {
  return {
    id: row.id,
    type: "dispute",
    attributes: {
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      reason: row.reason,
      provider_reason: row.providerReason,
      provider_reference: row.providerReference,
      test_mode: row.testMode,
      evidence_due_by: iso(row.evidenceDueBy),
      evidence: row.evidence,
      evidence_updated: maybeIso(row.evidenceUpdatedAt),
      submitted: maybeIso(row.submittedAt),
      accepted: maybeIso(row.acceptedAt),
      closed: maybeIso(row.closedAt),
      created: iso(row.createdAt),
      updated: iso(row.updatedAt),
    },
    relationships: {
      invoice: { data: { type: "payment-invoice", id: row.invoiceId } },
      connection: { data: { type: "connection", id: row.connectionId } },
    },
    links: { self: `${baseUrl}${disputePath(row.id)}` },
  };
}
