import "server-only";
import { formatMinor } from "@/lib/money";
import { acceptSandboxDispute, disputeOfRecord, readSandboxDispute, submitSandboxEvidence, type SandboxDisputeResult } from "@/lib/sandbox/disputes";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { A_DISPUTE_REASONS, A_DISPUTE_REFUSALS, A_DISPUTE_STATUS } from "../mapping";
import { aDisputeAcceptSchema, aDisputeEvidenceSchema, type ADispute } from "../wire";
import { invalidRequest, refuse, SLUG, type SignedRequest } from "./common";

/** A dispute record in A's words (its answers, status answers and dispute notifications). */
export function disputeFromRecord(record: SandboxRecord): ADispute {
  const dispute = disputeOfRecord(record);
  return {
    dispute_id: dispute.reference,
    transaction_id: dispute.paymentReference,
    ...(dispute.paymentKey ? { request_id: dispute.paymentKey } : {}),
    status: A_DISPUTE_STATUS[dispute.status],
    reason_code: A_DISPUTE_REASONS[dispute.reason],
    amount_disputed: formatMinor(dispute.amountMinor, dispute.currency),
    currency: dispute.currency,
    evidence_due_at: dispute.evidenceDueBy.toISOString(),
  };
}

const notFound = (disputeId: string) => refuse(404, "not_found", `No dispute with dispute_id ${disputeId}.`);

function answer(result: SandboxDisputeResult, disputeId: string): Response {
  if (result.kind === "recorded") return Response.json(disputeFromRecord(result.record));
  if (result.code === "not_found") return notFound(disputeId);
  const refusal = A_DISPUTE_REFUSALS[result.code];
  return refuse(result.status, refusal.code, refusal.message);
}

/** POST /api/v2/status with `operation: "dispute"`: a dispute of this merchant by its dispute_id. */
export async function disputeStatus({ body, account, context }: SignedRequest): Promise<Response> {
  const disputeId = typeof body.dispute_id === "string" ? body.dispute_id : "";
  const record = disputeId ? await readSandboxDispute(context.db, SLUG, account, disputeId) : undefined;
  return record ? Response.json(disputeFromRecord(record)) : notFound(disputeId);
}

/** POST /api/v2/disputes/evidence: the merchant's evidence, once per request_id. */
export async function takeEvidence({ body, account, context }: SignedRequest): Promise<Response> {
  const parsed = aDisputeEvidenceSchema.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error.issues);
  const { request_id, dispute_id, evidence, attachments } = parsed.data;
  const files = attachments.map((file) => ({ name: file.file_name, contentType: file.content_type, bytes: Buffer.from(file.content_base64, "base64").length }));
  const result = await submitSandboxEvidence(context.db, {
    provider: SLUG,
    account,
    reference: dispute_id,
    submissionKey: request_id,
    evidence: { text: evidence, files },
  });
  return answer(result, dispute_id);
}

/** POST /api/v2/disputes/accept: the merchant concedes the dispute. */
export async function takeAccept({ body, account, context }: SignedRequest): Promise<Response> {
  const parsed = aDisputeAcceptSchema.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error.issues);
  const { request_id, dispute_id } = parsed.data;
  return answer(await acceptSandboxDispute(context.db, { provider: SLUG, account, reference: dispute_id, key: request_id }), dispute_id);
}
