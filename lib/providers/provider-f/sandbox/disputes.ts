import "server-only";
import type { Db } from "@/lib/db/client";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { acceptSandboxDispute, disputeOfRecord, readSandboxDispute, submitSandboxEvidence, type SandboxDisputeResult } from "@/lib/sandbox/disputes";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { F_DISPUTE_REASONS, F_DISPUTE_REFUSALS, F_DISPUTE_STATUS } from "../mapping";
import { fDisputeCloseSchema, fDisputeEvidenceSchema, type FDispute } from "../wire";
import { fError, SLUG, type FAnswer } from "./charges";

/** A dispute record in F's words (its answers and dispute events). */
export function presentDispute(record: SandboxRecord): FDispute {
  const dispute = disputeOfRecord(record);
  return {
    id: dispute.reference,
    object: "dispute",
    charge: dispute.paymentReference,
    ...(dispute.paymentKey ? { charge_reference: dispute.paymentKey } : {}),
    status: F_DISPUTE_STATUS[dispute.status],
    reason: F_DISPUTE_REASONS[dispute.reason],
    amount: Number(dispute.amountMinor),
    currency: dispute.currency.toLowerCase(),
    evidence_details: { due_by: Math.floor(dispute.evidenceDueBy.getTime() / 1000) },
  };
}

const notFound = () => fError(404, "invalid_request_error", "resource_missing", "No such dispute of this merchant.");

function answer(result: SandboxDisputeResult): FAnswer {
  if (result.kind === "recorded") return { status: 200, body: presentDispute(result.record) };
  if (result.code === "not_found") return notFound();
  return fError(result.status, "invalid_request_error", F_DISPUTE_REFUSALS[result.code], result.text);
}

const issues = (error: { issues: readonly { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; ");

/** GET /v1/disputes/{id}. */
export async function readDispute(db: Db, account: SandboxAccount, id: string): Promise<FAnswer> {
  const record = await readSandboxDispute(db, SLUG, account, id);
  return record ? { status: 200, body: presentDispute(record) } : notFound();
}

/** POST /v1/disputes/{id}/evidence: the merchant's evidence, once per reference. */
export async function submitEvidence(db: Db, account: SandboxAccount, id: string, body: unknown): Promise<FAnswer> {
  const parsed = fDisputeEvidenceSchema.safeParse(body);
  if (!parsed.success) return fError(400, "invalid_request_error", "invalid_request", issues(parsed.error));
  const { reference, evidence } = parsed.data;
  const files = parsed.data.files.map((file) => ({ name: file.filename, contentType: file.content_type, bytes: Buffer.from(file.data, "base64").length }));
  return answer(await submitSandboxEvidence(db, { provider: SLUG, account, reference: id, submissionKey: reference, evidence: { text: evidence, files } }));
}

/** POST /v1/disputes/{id}/close: the merchant accepts the dispute. */
export async function closeDispute(db: Db, account: SandboxAccount, id: string, body: unknown): Promise<FAnswer> {
  const parsed = fDisputeCloseSchema.safeParse(body);
  if (!parsed.success) return fError(400, "invalid_request_error", "invalid_request", issues(parsed.error));
  return answer(await acceptSandboxDispute(db, { provider: SLUG, account, reference: id, key: parsed.data.reference }));
}
