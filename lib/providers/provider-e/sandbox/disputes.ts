import "server-only";
import type { Db } from "@/lib/db/client";
import { formatMinor } from "@/lib/money";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { acceptSandboxDispute, disputeOfRecord, readSandboxDispute, submitSandboxEvidence, type SandboxDisputeResult } from "@/lib/sandbox/disputes";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { E_DISPUTE_REASONS, E_DISPUTE_REFUSALS, E_DISPUTE_STATUS } from "../mapping";
import { eDisputeAcceptSchema, eDisputeDefenseSchema, type EDispute } from "../wire";
import { eError, SLUG, type EAnswer } from "./payments";

/** A dispute record in E's words (its answers and dispute notifications). */
export function presentDispute(record: SandboxRecord): EDispute {
  const dispute = disputeOfRecord(record);
  return {
    disputeId: dispute.reference,
    paymentId: dispute.paymentReference,
    ...(dispute.paymentKey ? { paymentMerchantReference: dispute.paymentKey } : {}),
    status: E_DISPUTE_STATUS[dispute.status],
    reasonCode: E_DISPUTE_REASONS[dispute.reason],
    amount: { value: formatMinor(dispute.amountMinor, dispute.currency), currency: dispute.currency },
    defenseDueDate: dispute.evidenceDueBy.toISOString(),
  };
}

const notFound = () => eError(404, "not_found", "No dispute of this merchant with this id.");

function answer(result: SandboxDisputeResult): EAnswer {
  if (result.kind === "recorded") return { status: 200, body: presentDispute(result.record) };
  if (result.code === "not_found") return notFound();
  return eError(result.status, E_DISPUTE_REFUSALS[result.code], result.text);
}

const issues = (error: { issues: readonly { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; ");

/** GET /v2/disputes/{disputeId}. */
export async function readDispute(db: Db, account: SandboxAccount, disputeId: string): Promise<EAnswer> {
  const record = await readSandboxDispute(db, SLUG, account, disputeId);
  return record ? { status: 200, body: presentDispute(record) } : notFound();
}

/** POST /v2/disputes/{disputeId}/defend: the merchant's defense, once per merchantReference. */
export async function defendDispute(db: Db, account: SandboxAccount, disputeId: string, body: unknown): Promise<EAnswer> {
  const parsed = eDisputeDefenseSchema.safeParse(body);
  if (!parsed.success) return eError(422, "validation", issues(parsed.error));
  const { merchantReference, defenseText, defenseDocuments } = parsed.data;
  const files = defenseDocuments.map((file) => ({ name: file.fileName, contentType: file.contentType, bytes: Buffer.from(file.content, "base64").length }));
  return answer(
    await submitSandboxEvidence(db, {
      provider: SLUG,
      account,
      reference: disputeId,
      submissionKey: merchantReference,
      evidence: { text: defenseText, files },
    }),
  );
}

/** POST /v2/disputes/{disputeId}/accept: the merchant concedes the dispute. */
export async function acceptDispute(db: Db, account: SandboxAccount, disputeId: string, body: unknown): Promise<EAnswer> {
  const parsed = eDisputeAcceptSchema.safeParse(body);
  if (!parsed.success) return eError(422, "validation", issues(parsed.error));
  return answer(await acceptSandboxDispute(db, { provider: SLUG, account, reference: disputeId, key: parsed.data.merchantReference }));
}
