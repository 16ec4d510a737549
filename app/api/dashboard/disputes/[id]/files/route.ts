import { ApiError } from "@/lib/api/errors";
import { uploadResponse } from "@/lib/api/dispute-responses";
import { readMultipartBody } from "@/lib/api/request";
import { withSession } from "@/lib/api/with-session";
import { personActor } from "@/lib/audit/record";
import { uploadFile } from "@/lib/disputes/files";
import { saveEvidence } from "@/lib/disputes/respond";
import { findDispute } from "@/lib/disputes/store";
import { EVIDENCE_FILES_MAX } from "@/lib/disputes/contract";
import { DISPUTE_ID } from "@/lib/ids/patterns";
import { canInMode, modeRefusal } from "@/lib/identity/permissions";

type Params = { id: string };

/**
 * The dispute page's file upload (multipart: a part named `file`): checked and stored as the API's
 * `POST /api/commerce/files` does (PDF, PNG or JPEG by its bytes, at most 5 MB), in the dispute's
 * mode, then put on the dispute's evidence draft at once, so it survives leaving the page. Another
 * merchant's dispute is 404; a role that may not respond in the dispute's mode is 403.
 */
export const POST = withSession<Params>(
  async ({ request, params, viewer, db }) => {
    const dispute = DISPUTE_ID.test(params.id) ? await findDispute(db, viewer.merchant.id, params.id) : undefined;
    if (!dispute) throw new ApiError(404, "not_found", "Not found", `No dispute ${params.id} exists for this merchant`);
    const mode = dispute.testMode ? "test" : "live";
    if (!canInMode(viewer.user.role, "disputes.respond", mode))
      throw new ApiError(403, "forbidden", "Forbidden", modeRefusal(viewer.user.role, "disputes.respond", mode));
    if (dispute.status !== "needs_response" || dispute.submittedAt || dispute.acceptedAt)
      throw new ApiError(409, "dispute_closed", "Not possible now", "Evidence is taken only while the dispute needs a response.", "/data/attributes/file");
    const fileIds = dispute.evidence.file_ids ?? [];
    if (fileIds.length >= EVIDENCE_FILES_MAX)
      throw new ApiError(409, "too_many_files", "Not possible now", `At most ${EVIDENCE_FILES_MAX} files go with the evidence.`, "/data/attributes/file");
    const form = await readMultipartBody(request);
    const uploaded = await uploadFile(db, {
      merchantId: viewer.merchant.id,
      testMode: dispute.testMode,
      purpose: "dispute_evidence",
      file: form.get("file") ?? undefined,
      createdBy: viewer.user.id,
    });
    if (uploaded.kind === "created") {
      const caller = { merchantId: viewer.merchant.id, mode, by: viewer.user.id, actor: personActor(viewer) } as const;
      const attributes = { ...dispute.evidence, file_ids: [...fileIds, uploaded.file.id] };
      const saved = await saveEvidence(db, caller, dispute.id, { data: { type: "dispute-evidence", attributes } });
      if (saved.kind !== "ok")
        throw new ApiError(409, "dispute_closed", "Not possible now", "The dispute stopped taking evidence meanwhile.", "/data/attributes/file");
    }
    return uploadResponse(uploaded);
  },
  { can: "disputes.respond" },
);
