import "server-only";
import { parseJson } from "@/lib/providers/kit/callback-scheme";
import { formatMinor } from "@/lib/money";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { acceptSandboxDispute, disputeOfRecord, readSandboxDispute, submitSandboxEvidence, type SandboxDisputeResult } from "@/lib/sandbox/disputes";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { B_DISPUTE_REASONS, B_DISPUTE_REFUSALS, B_DISPUTE_RESULT } from "../mapping";
import { bDisputeAcceptSchema, bDisputeEvidenceSchema, type BDispute } from "../wire";
import { refuse, SLUG } from "./charges";

/** A dispute record in B's words (its answers and dispute notifications). */
export function disputeFromRecord(record: SandboxRecord): BDispute {
  const dispute = disputeOfRecord(record);
  return {
    result: B_DISPUTE_RESULT[dispute.status],
    dispute_txn: dispute.reference,
    txn: dispute.paymentReference,
    ...(dispute.paymentKey ? { order_ref: dispute.paymentKey } : {}),
    sum: formatMinor(dispute.amountMinor, dispute.currency),
    cur: dispute.currency,
    reason_code: B_DISPUTE_REASONS[dispute.reason],
    respond_by: dispute.evidenceDueBy.toISOString(),
  };
}

function answer(result: SandboxDisputeResult): Response {
  if (result.kind === "recorded") return Response.json(disputeFromRecord(result.record));
  if (result.code === "not_found") return refuse(404, "not_found", "No dispute with that dispute_txn on this terminal.");
  const refusal = B_DISPUTE_REFUSALS[result.code];
  return refuse(result.status, refusal.error_code, refusal.error_text);
}

const issues = (error: { issues: readonly { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; ");

/** GET /v1/disputes/{dispute_txn}. */
export async function disputeStatus(disputeTxn: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const record = await readSandboxDispute(context.db, SLUG, account, disputeTxn);
  if (!record) return refuse(404, "not_found", "No dispute with that dispute_txn on this terminal.");
  return Response.json(disputeFromRecord(record));
}

/** POST /v1/disputes/evidence: the merchant's evidence, once per evidence_ref. */
export async function takeEvidence(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const parsed = bDisputeEvidenceSchema.safeParse(parseJson(raw));
  if (!parsed.success) return refuse(400, "invalid_request", issues(parsed.error));
  const { terminal_id, dispute_txn, evidence_ref, attachments, ...text } = parsed.data;
  if (terminal_id !== account.credentials.terminal_id) return refuse(401, "unknown_terminal", "terminal_id differs from X-Terminal.");
  const files = attachments.map((file) => ({ name: file.name, contentType: file.type, bytes: Buffer.from(file.data, "base64").length }));
  return answer(
    await submitSandboxEvidence(context.db, { provider: SLUG, account, reference: dispute_txn, submissionKey: evidence_ref, evidence: { text, files } }),
  );
}

/** POST /v1/disputes/accept: the merchant concedes the dispute. */
export async function takeAccept(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const parsed = bDisputeAcceptSchema.safeParse(parseJson(raw));
  if (!parsed.success) return refuse(400, "invalid_request", issues(parsed.error));
  if (parsed.data.terminal_id !== account.credentials.terminal_id) return refuse(401, "unknown_terminal", "terminal_id differs from X-Terminal.");
  return answer(await acceptSandboxDispute(context.db, { provider: SLUG, account, reference: parsed.data.dispute_txn, key: parsed.data.accept_ref }));
}
