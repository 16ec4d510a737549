import { z } from "zod";
import { DISPUTE_REASONS, DISPUTE_STATUSES } from "@/lib/db/enums";
import { EVIDENCE_TEXT_FIELDS, FILE_PURPOSES, FILE_TYPES } from "./contract";

/**
 * The JSON:API documents of disputes and files (isomorphic): what lib/api/dispute-resource.ts and
 * lib/api/file-resource.ts write, and what the OpenAPI document shows.
 */

const time = (description: string) => z.iso.datetime().meta({ description });
const maybeTime = (description: string) => z.iso.datetime().nullable().meta({ description });

const evidenceSchema = z
  .object({
    ...Object.fromEntries(EVIDENCE_TEXT_FIELDS.map((field) => [field, z.string().optional()])),
    file_ids: z.array(z.string()).optional(),
  })
  .meta({ description: "The evidence: the draft until submitted, then what was sent" });

export const disputeResourceSchema = z
  .object({
    id: z.string().meta({ description: "dp_…; also the idempotency key of its submission and acceptance at the provider" }),
    type: z.literal("dispute"),
    attributes: z.object({
      status: z.enum(DISPUTE_STATUSES).meta({
        description: "needs_response (send evidence or accept before evidence_due_by), under_review (evidence sent), then won, lost or accepted",
      }),
      amount: z.string().meta({ description: "Decimal text in the currency: what the dispute holds back" }),
      currency: z.string(),
      reason: z.enum(DISPUTE_REASONS),
      provider_reason: z.string().meta({ description: "The provider's own code or words, as sent" }),
      provider_reference: z.string().meta({ description: "The provider's id of the dispute" }),
      test_mode: z.boolean(),
      evidence_due_by: time("Until when the provider takes evidence"),
      evidence: evidenceSchema,
      evidence_updated: maybeTime("When the draft was last saved"),
      submitted: maybeTime("When the evidence was sent to the provider"),
      accepted: maybeTime("When the dispute was conceded"),
      closed: maybeTime("When it was won, lost or accepted; null while open"),
      created: time("When the provider's first word of it arrived"),
      updated: time("Its last change"),
    }),
    relationships: z.object({
      invoice: z.object({ data: z.object({ type: z.literal("payment-invoice"), id: z.string() }) }),
      connection: z.object({ data: z.object({ type: z.literal("connection"), id: z.string() }) }),
    }),
    links: z.object({ self: z.url() }),
  })
  .meta({ description: "Dispute (JSON:API)" });

export const disputeDocumentSchema = z.object({ data: disputeResourceSchema });
export const disputeListDocumentSchema = z.object({
  data: z.array(disputeResourceSchema),
  links: z.object({ self: z.url(), next: z.url().optional() }),
});

export const fileResourceSchema = z
  .object({
    id: z.string().meta({ description: "file_…" }),
    type: z.literal("file"),
    attributes: z.object({
      purpose: z.enum(FILE_PURPOSES),
      filename: z.string(),
      content_type: z.enum(FILE_TYPES).meta({ description: "The type its bytes were checked to be" }),
      size: z.int().meta({ description: "Bytes" }),
      sha256: z.string().meta({ description: "Hex SHA-256 of the bytes" }),
      test_mode: z.boolean(),
      created: time("When it was uploaded"),
    }),
    links: z.object({ self: z.url().meta({ description: "GET serves the bytes, as an attachment of content_type" }) }),
  })
  .meta({ description: "Uploaded file (JSON:API)" });

export const fileDocumentSchema = z.object({ data: fileResourceSchema });
