import { z } from "zod";
import { disputeEvidenceAttributesSchema } from "./contract";

/**
 * The dashboard's evidence form (components/disputes/evidence-form.tsx) and its actions
 * (lib/actions/disputes.ts): the API's evidence attributes (the same five text fields and their
 * checks) and the dispute they are for. Files are uploaded on their own and kept on the draft by
 * the server, so the form holds the text only.
 */
export const disputeEvidenceFormSchema = disputeEvidenceAttributesSchema.omit({ file_ids: true }).extend({
  disputeId: z.string().min(1).max(128),
});

/** Submit and Accept name the dispute only: what is sent is the saved draft. */
export const disputeIdSchema = z.object({ disputeId: z.string().min(1).max(128) }).strict();
