"use server";

import { revalidatePath } from "next/cache";
import { personActor } from "@/lib/audit/record";
import { getDb, type Db } from "@/lib/db/client";
import { disputeEvidenceFormSchema, disputeIdSchema } from "@/lib/disputes/form-schema";
import { acceptDispute, saveEvidence, submitDispute, type DisputeActionResult, type DisputeCaller } from "@/lib/disputes/respond";
import { findDispute, type DisputeRow } from "@/lib/disputes/store";
import { DISPUTE_ID } from "@/lib/ids/patterns";
import { canInMode, modeRefusal } from "@/lib/identity/permissions";
import type { Viewer } from "@/lib/identity/membership";
import { fail, ok, problem, refuse, type Problem, type Result } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/**
 * The dispute page's answers: save the evidence draft, Submit it, Accept the dispute. Each finds
 * the merchant's own dispute (another merchant's is not found), then checks the role may respond
 * in the dispute's mode (support members respond to test disputes only), whatever the page showed,
 * and calls the same service as the API (lib/disputes/respond.ts, which audits Submit and Accept).
 */

type DisputeSummary = { id: string; status: string; submitted: boolean; accepted: boolean };

const summary = (row: DisputeRow): DisputeSummary => ({
  id: row.id,
  status: row.status,
  submitted: row.submittedAt !== null,
  accepted: row.acceptedAt !== null,
});

const NOT_FOUND = "This dispute does not exist.";

/** The viewer's dispute and the caller the service takes, or the refusal (not found, or not in this mode). */
async function ownDispute(db: Db, viewer: Viewer, disputeId: string): Promise<Result<{ dispute: DisputeRow; caller: DisputeCaller }>> {
  const dispute = DISPUTE_ID.test(disputeId) ? await findDispute(db, viewer.merchant.id, disputeId) : undefined;
  if (!dispute) return refuse("not_found", NOT_FOUND);
  const mode = dispute.testMode ? "test" : "live";
  if (!canInMode(viewer.user.role, "disputes.respond", mode)) return refuse("forbidden", modeRefusal(viewer.user.role, "disputes.respond", mode));
  return ok({ dispute, caller: { merchantId: viewer.merchant.id, mode, by: viewer.user.id, actor: personActor(viewer) } });
}

/** The API's pointers (/data/attributes/explanation) as the form's fields (explanation). */
function formProblems(problems: readonly Problem[]): Problem[] {
  return problems.map((entry) => {
    const [data, attributes, field] = entry.path;
    return data === "data" && attributes === "attributes" && typeof field === "string" ? problem(entry.code, entry.message, [field]) : { ...entry, path: [] };
  });
}

function answer(result: DisputeActionResult): Result<DisputeSummary> {
  switch (result.kind) {
    case "ok":
      revalidatePath(`/disputes/${result.dispute.id}`);
      revalidatePath(`/invoices/${result.dispute.invoiceId}`);
      return ok(summary(result.dispute));
    case "not_found":
      return refuse("not_found", NOT_FOUND);
    case "invalid":
      return fail(formProblems(result.problems));
    case "conflict":
      return refuse(result.code, result.detail);
    case "provider_failed":
      return refuse("provider_unavailable", result.detail);
  }
}

/** Save draft: the text fields replace the draft's; the files already on the draft stay on it. */
export const saveDisputeEvidenceAction = validatedAction(
  "disputes.save-evidence",
  { schema: disputeEvidenceFormSchema, can: "disputes.respond" },
  async ({ disputeId, ...text }, viewer) => {
    const db = await getDb();
    const own = await ownDispute(db, viewer, disputeId);
    if (!own.ok) return own;
    const fileIds = own.value.dispute.evidence.file_ids;
    const attributes = { ...text, ...(fileIds?.length ? { file_ids: fileIds } : {}) };
    return answer(await saveEvidence(db, own.value.caller, disputeId, { data: { type: "dispute-evidence", attributes } }));
  },
);

/** Submit evidence: the saved draft to the provider, once. */
export const submitDisputeAction = validatedAction("disputes.submit", { schema: disputeIdSchema, can: "disputes.respond" }, async ({ disputeId }, viewer) => {
  const db = await getDb();
  const own = await ownDispute(db, viewer, disputeId);
  if (!own.ok) return own;
  return answer(await submitDispute(db, own.value.caller, disputeId));
});

/** Accept dispute: concede it, once. */
export const acceptDisputeAction = validatedAction("disputes.accept", { schema: disputeIdSchema, can: "disputes.respond" }, async ({ disputeId }, viewer) => {
  const db = await getDb();
  const own = await ownDispute(db, viewer, disputeId);
  if (!own.ok) return own;
  return answer(await acceptDispute(db, own.value.caller, disputeId));
});
