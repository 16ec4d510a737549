import { z } from "zod";
import { DISPUTE_STATUSES, type DisputeReason, type DisputeStatus } from "@/lib/db/enums";

/**
 * Disputes' contract, isomorphic: the evidence request (one schema for the API, the dashboard's
 * evidence form and the OpenAPI document), the file rules of `POST /api/commerce/files`, and the
 * words the API description and the dashboard use for reasons and statuses.
 */

export { DISPUTE_STATUSES, type DisputeReason, type DisputeStatus };

/** A text field of the evidence: enough for a letter, not a book. */
export const EVIDENCE_TEXT_MAX = 20_000;
/** Files attached to one dispute's evidence. */
export const EVIDENCE_FILES_MAX = 10;

/** Uploads: PDF, PNG or JPEG, told by their first bytes (never by the name or the declared type), at most 5 MB. */
export const FILE_MAX_BYTES = 5 * 1024 * 1024;
export const FILE_TYPES = ["application/pdf", "image/png", "image/jpeg"] as const;
export type FileType = (typeof FILE_TYPES)[number];
export const FILE_PURPOSES = ["dispute_evidence"] as const;

/** The text fields of the evidence, in the order the form and the provider's request show them. */
export const EVIDENCE_TEXT_FIELDS = ["product_description", "customer_communication", "shipping_tracking", "refund_policy", "explanation"] as const;
export type EvidenceTextField = (typeof EVIDENCE_TEXT_FIELDS)[number];

export const EVIDENCE_FIELD_LABELS: Readonly<Record<EvidenceTextField, string>> = {
  product_description: "Product or service description",
  customer_communication: "Communication with the customer",
  shipping_tracking: "Shipping carrier and tracking number",
  refund_policy: "Refund policy shown to the customer",
  explanation: "Your explanation",
};

const evidenceText = (field: EvidenceTextField) =>
  z
    .string({ error: `${field} must be text` })
    .max(EVIDENCE_TEXT_MAX, `${field} must be at most ${EVIDENCE_TEXT_MAX} characters`)
    .optional()
    .describe(EVIDENCE_FIELD_LABELS[field]);

/** The evidence's attributes: every field optional (a draft is saved as it is); Submit needs at least one. */
export const disputeEvidenceAttributesSchema = z
  .object({
    product_description: evidenceText("product_description"),
    customer_communication: evidenceText("customer_communication"),
    shipping_tracking: evidenceText("shipping_tracking"),
    refund_policy: evidenceText("refund_policy"),
    explanation: evidenceText("explanation"),
    file_ids: z
      .array(z.string({ error: "each file id must be text" }).regex(/^file_[A-Za-z0-9]{1,64}$/, "each file id is a file's id, such as file_2x8Q…"), {
        error: "file_ids must be a list of file ids",
      })
      .max(EVIDENCE_FILES_MAX, `at most ${EVIDENCE_FILES_MAX} files`)
      .optional()
      .describe(`Files uploaded with POST /api/commerce/files (purpose dispute_evidence), at most ${EVIDENCE_FILES_MAX}.`),
  })
  .strict();

/** `POST /api/commerce/disputes/{id}/evidence`: saves the draft (replacing the one before); nothing is sent. */
export const disputeEvidenceRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("dispute-evidence", { error: 'data.type must be "dispute-evidence"' }),
        attributes: disputeEvidenceAttributesSchema,
      })
      .strict(),
  })
  .strict();

/** The provider's reasons in plain words, for the dispute's page and the e-mails. */
export const DISPUTE_REASON_WORDS: Readonly<Record<DisputeReason, string>> = {
  fraudulent: "The cardholder says they did not make this payment.",
  not_received: "The customer says they did not receive what they paid for.",
  not_as_described: "The customer says what they received was not as described.",
  duplicate: "The customer says they were charged twice for the same purchase.",
  credit_not_processed: "The customer says a promised refund or credit never arrived.",
  other: "The customer disputed the payment for another reason (see the provider's words).",
};

export const DISPUTE_STATUS_LABELS: Readonly<Record<DisputeStatus, string>> = {
  needs_response: "Needs response",
  under_review: "Under review",
  won: "Won",
  lost: "Lost",
  accepted: "Accepted",
};
