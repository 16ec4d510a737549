import "server-only";
import { parseJson } from "@/lib/providers/kit/callback-scheme";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { acceptSandboxDispute, disputeOfRecord, readSandboxDispute, submitSandboxEvidence, type SandboxDisputeResult } from "@/lib/sandbox/disputes";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { C_DISPUTE_REASONS, C_DISPUTE_REFUSALS, C_DISPUTE_STATE } from "../mapping";
import { cDisputeAcceptSchema, cDisputeEvidenceSchema, type CDispute } from "../wire";
import { refuse, SLUG } from "./orders";

/** A dispute record in C's words (its answers and dispute notifications). */
export function disputeFromRecord(record: SandboxRecord): { dispute: CDispute } {
  const dispute = disputeOfRecord(record);
  return {
    dispute: {
      id: dispute.reference,
      order_id: dispute.paymentReference,
      ...(dispute.paymentKey ? { shop_order_id: dispute.paymentKey } : {}),
      state: C_DISPUTE_STATE[dispute.status],
      reason: C_DISPUTE_REASONS[dispute.reason],
      amount_minor: Number(dispute.amountMinor),
      currency_code: dispute.currency,
      respond_by: dispute.evidenceDueBy.toISOString(),
    },
  };
}

const notFound = () => refuse(404, "dispute_not_found", "The shop has no dispute with that id.");

function answer(result: SandboxDisputeResult): Response {
  if (result.kind === "recorded") return Response.json(disputeFromRecord(result.record));
  if (result.code === "not_found") return notFound();
  const refusal = C_DISPUTE_REFUSALS[result.code];
  return refuse(result.status, refusal.code, refusal.message);
}

const issues = (error: { issues: readonly { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; ");

/** GET /shop/disputes/{id}. */
export async function disputeStatus(id: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const record = await readSandboxDispute(context.db, SLUG, account, id);
  return record ? Response.json(disputeFromRecord(record)) : notFound();
}

/** POST /shop/disputes/{id}/evidence: the merchant's evidence, once per shop_submission_id. */
export async function takeEvidence(id: string, raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const parsed = cDisputeEvidenceSchema.safeParse(parseJson(raw));
  if (!parsed.success) return refuse(422, "invalid_evidence", issues(parsed.error));
  const { shop_submission_id, evidence, documents } = parsed.data;
  const files = documents.map((file) => ({ name: file.file_name, contentType: file.content_type, bytes: Buffer.from(file.content_base64, "base64").length }));
  return answer(
    await submitSandboxEvidence(context.db, { provider: SLUG, account, reference: id, submissionKey: shop_submission_id, evidence: { text: evidence, files } }),
  );
}

/** POST /shop/disputes/{id}/accept: the merchant concedes the dispute. */
export async function takeAccept(id: string, raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const parsed = cDisputeAcceptSchema.safeParse(parseJson(raw));
  if (!parsed.success) return refuse(422, "invalid_acceptance", issues(parsed.error));
  return answer(await acceptSandboxDispute(context.db, { provider: SLUG, account, reference: id, key: parsed.data.shop_submission_id }));
}
