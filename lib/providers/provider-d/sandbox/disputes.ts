import "server-only";
import type { Db } from "@/lib/db/client";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { acceptSandboxDispute, disputeOfRecord, readSandboxDispute, submitSandboxEvidence, type SandboxDisputeResult } from "@/lib/sandbox/disputes";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { D_DISPUTE_REASONS, D_DISPUTE_REFUSALS, D_DISPUTE_STATE } from "../mapping";
import { D_CURRENCY_CODES, dDisputeAcceptSchema, dDisputeEvidenceSchema, type DDispute } from "../wire";
import { dError, SLUG, type DAnswer } from "./sale";

/** A dispute record in D's words (its answers and dispute notifications). */
export function disputeFromRecord(record: SandboxRecord): DDispute {
  const dispute = disputeOfRecord(record);
  return {
    dispute_id: dispute.reference,
    payment_id: dispute.paymentReference,
    ...(dispute.paymentKey ? { transaction_id: dispute.paymentKey } : {}),
    state: D_DISPUTE_STATE[dispute.status],
    reason_code: D_DISPUTE_REASONS[dispute.reason],
    amount: Number(dispute.amountMinor),
    currency: D_CURRENCY_CODES[dispute.currency] ?? dispute.currency,
    respond_by: Math.floor(dispute.evidenceDueBy.getTime() / 1000),
  };
}

const notFound = () => dError(404, "dispute_not_found", "No dispute with this dispute_id.");

function answer(result: SandboxDisputeResult): DAnswer {
  if (result.kind === "recorded") return { status: 200, body: { result: disputeFromRecord(result.record) } };
  if (result.code === "not_found") return notFound();
  return dError(result.status, D_DISPUTE_REFUSALS[result.code], result.text);
}

const issues = (error: { issues: readonly { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; ");

/** POST /dispute/status: a dispute of this merchant, by its dispute_id. */
export async function runDisputeStatus(db: Db, account: SandboxAccount, body: unknown): Promise<DAnswer> {
  const id = (body as { dispute_id?: unknown } | null)?.dispute_id;
  const record = typeof id === "string" && id !== "" ? await readSandboxDispute(db, SLUG, account, id) : undefined;
  return record ? { status: 200, body: { result: disputeFromRecord(record) } } : notFound();
}

/** POST /dispute/evidence: the merchant's evidence, once per submission_id. */
export async function runDisputeEvidence(db: Db, account: SandboxAccount, body: unknown): Promise<DAnswer> {
  const parsed = dDisputeEvidenceSchema.safeParse(body);
  if (!parsed.success) return dError(400, "bad_request", issues(parsed.error));
  const { dispute_id, submission_id, evidence } = parsed.data;
  const files = parsed.data.files.map((file) => ({ name: file.name, contentType: file.mime, bytes: Buffer.from(file.data, "base64").length }));
  return answer(
    await submitSandboxEvidence(db, { provider: SLUG, account, reference: dispute_id, submissionKey: submission_id, evidence: { text: evidence, files } }),
  );
}

/** POST /dispute/accept: the merchant concedes the dispute. */
export async function runDisputeAccept(db: Db, account: SandboxAccount, body: unknown): Promise<DAnswer> {
  const parsed = dDisputeAcceptSchema.safeParse(body);
  if (!parsed.success) return dError(400, "bad_request", issues(parsed.error));
  return answer(await acceptSandboxDispute(db, { provider: SLUG, account, reference: parsed.data.dispute_id, key: parsed.data.submission_id }));
}
