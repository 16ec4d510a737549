import { disputeEvidenceRequestSchema, FILE_MAX_BYTES, FILE_PURPOSES, FILE_TYPES } from "@/lib/disputes/contract";
import { disputeListQuerySchema } from "@/lib/disputes/list";
import { disputeDocumentSchema, disputeListDocumentSchema, fileDocumentSchema } from "@/lib/disputes/resource-schemas";
import { DISPUTE_ID, FILE_ID } from "@/lib/ids/patterns";
import { DISPUTE_TEST_NOTE, WINNING_EVIDENCE_PHRASE } from "@/lib/sandbox/cards";
import { JSON_API, REQUEST_TYPES, ref, toSchema, type Json } from "./json-schema";

/**
 * The dispute and file operations of the OpenAPI document: the inbox (list, read, CSV), the
 * evidence draft, Submit and Accept, and the upload of evidence files (multipart) and their bytes.
 */

export const DISPUTE_SCHEMAS: Readonly<Record<string, Json>> = {
  DisputeDocument: toSchema(disputeDocumentSchema),
  DisputeList: toSchema(disputeListDocumentSchema),
  DisputeEvidenceRequest: toSchema(disputeEvidenceRequestSchema),
  FileDocument: toSchema(fileDocumentSchema),
};

type ErrorRefs = (...codes: [string, string][]) => Json;

const idOf = (pattern: RegExp): Json => ({ name: "id", in: "path", required: true, schema: { type: "string", pattern: pattern.source } });

const disputeAnswer = (description: string): Json => ({ description, content: { [JSON_API]: { schema: ref("DisputeDocument") } } });
const problemAnswer = (description: string): Json => ({ description, content: { [JSON_API]: { schema: ref("ErrorDocument") } } });

function listParameters(): Json[] {
  const properties = (toSchema(disputeListQuerySchema).properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...schema } = property;
    return { name, in: "query", required: false, description, schema };
  });
}

/** The file the evidence example names when the document is not made with one of the merchant's uploads. */
const EXAMPLE_EVIDENCE_FILE = "file_4f0c2a9e1b7d4c3a8e6f5d2c1b0a9e8d";

const evidenceExamples = (fileId: string): Json => ({
  delivered: {
    summary: "Goods delivered: tracking, the customer's messages and a signed receipt",
    value: {
      data: {
        type: "dispute-evidence",
        attributes: {
          product_description: "Blue running shoes, size 42, order 2026-1184",
          shipping_tracking: "DHL 00340434161094042557, delivered 2026-11-12 and signed for",
          customer_communication: "On 2026-11-14 the customer wrote that the shoes fit well.",
          explanation: "The customer received the order; the signed delivery receipt is attached.",
          file_ids: [fileId],
        },
      },
    },
  },
  draft: {
    summary: "A first draft: one field, more later (each save replaces the draft)",
    value: { data: { type: "dispute-evidence", attributes: { explanation: "Collecting the delivery receipt." } } },
  },
});

/** A small PDF as the multipart example shows it (the bytes themselves are binary). */
const UPLOAD_EXAMPLES: Json = {
  receipt: {
    summary: "A signed delivery receipt (PDF)",
    description: "curl -H 'Authorization: Bearer pok_test_…' -F purpose=dispute_evidence -F file=@receipt.pdf https://…/api/commerce/files",
    value: { purpose: "dispute_evidence", file: "(the bytes of receipt.pdf)" },
  },
};

const UPLOAD_SCHEMA: Json = {
  type: "object",
  required: ["purpose", "file"],
  properties: {
    purpose: { type: "string", enum: [...FILE_PURPOSES] },
    file: {
      type: "string",
      contentMediaType: "application/octet-stream",
      description: `The file: ${FILE_TYPES.join(", ")} (told by its bytes), 1 to ${FILE_MAX_BYTES} bytes`,
    },
  },
};

/** `errors`: the document's error answers (the common ones every operation lists, and these); `evidenceFileId`: an upload the evidence example names. */
export function disputePaths(errors: ErrorRefs, evidenceFileId = EXAMPLE_EVIDENCE_FILE): Json {
  return {
    "/api/commerce/disputes": {
      get: {
        operationId: "listDisputes",
        summary: "The merchant's disputes, newest first",
        description:
          "Disputes of the key's mode, from every provider, as their callbacks and status requests reported them. Filters: status " +
          "(or open), connection, invoice, due_before (the inbox by deadline). Keyset pages: links.next carries page[after]. " +
          "With Accept: text/csv every dispute the filters select, as CSV (not one page), like the invoice lists. " +
          DISPUTE_TEST_NOTE,
        parameters: listParameters(),
        responses: {
          "200": {
            description: "One page (JSON:API), or every matching dispute as CSV when Accept asks for text/csv",
            content: { [JSON_API]: { schema: ref("DisputeList") }, "text/csv": { schema: { type: "string" } } },
          },
          ...errors(["400", "QueryRefused"]),
        },
      },
    },
    "/api/commerce/disputes/{id}": {
      get: {
        operationId: "getDispute",
        summary: "Read one dispute",
        description: "Another merchant's, or the other mode's than the key's, answers 404 like an unknown id.",
        parameters: [idOf(DISPUTE_ID)],
        responses: { "200": disputeAnswer("The dispute"), ...errors(["400", "QueryRefused"], ["404", "NotFound"]) },
      },
    },
    "/api/commerce/disputes/{id}/evidence": {
      post: {
        operationId: "saveDisputeEvidence",
        summary: "Save the evidence draft (nothing is sent)",
        description:
          "Replaces the draft while the dispute needs a response. file_ids are files uploaded with POST /api/commerce/files by this " +
          "merchant in the dispute's mode; any other answers 422 with the pointer /data/attributes/file_ids/N. 409 once the " +
          "evidence is submitted (evidence_submitted), the dispute accepted (dispute_accepted) or closed (dispute_closed).",
        parameters: [idOf(DISPUTE_ID)],
        requestBody: {
          required: true,
          content: Object.fromEntries(
            REQUEST_TYPES.map((type) => [type, { schema: ref("DisputeEvidenceRequest"), examples: evidenceExamples(evidenceFileId) }]),
          ),
        },
        responses: {
          "200": disputeAnswer("The dispute with its draft"),
          "409": problemAnswer("The dispute takes no evidence now; the code says why"),
          ...errors(["400", "BadRequest"], ["403", "ReadOnlyKey"], ["404", "NotFound"], ["413", "PayloadTooLarge"], ["422", "UnprocessableEntity"]),
        },
      },
    },
    "/api/commerce/disputes/{id}/submit": {
      post: {
        operationId: "submitDispute",
        summary: "Send the saved evidence to the provider, once",
        description:
          "The dispute's id is the provider's idempotency key: a repeat, or two submits at once, send it once and answer with the " +
          "dispute as it is. Taken: under_review (dispute.updated). 409 deadline_passed after evidence_due_by (nothing is sent), " +
          "evidence_missing (save evidence first), or the provider's refusal (closed). 502 provider_unavailable: not taken this " +
          "time, nothing changed; send it again. Without an answer it stays submitted and status requests settle it. " +
          `Test mode: the sandbox decides the evidence won when a text field contains ${WINNING_EVIDENCE_PHRASE}, lost otherwise.`,
        parameters: [idOf(DISPUTE_ID)],
        responses: {
          "200": disputeAnswer("The dispute after the provider's answer"),
          "409": problemAnswer("The evidence cannot be sent; the code says why"),
          "502": problemAnswer("The provider did not take it (provider_unavailable); try again"),
          ...errors(["400", "QueryRefused"], ["403", "ReadOnlyKey"], ["404", "NotFound"]),
        },
      },
    },
    "/api/commerce/disputes/{id}/accept": {
      post: {
        operationId: "acceptDispute",
        summary: "Concede the dispute",
        description:
          "Once, while it is open: the provider closes it accepted (dispute.closed), and the disputed amount counts against the " +
          "payment's net. 409 when it is closed already; 502 when the provider did not take it (nothing changed).",
        parameters: [idOf(DISPUTE_ID)],
        responses: {
          "200": disputeAnswer("The dispute after the provider's answer"),
          "409": problemAnswer("The dispute cannot be accepted; the code says why"),
          "502": problemAnswer("The provider did not take it (provider_unavailable); try again"),
          ...errors(["400", "QueryRefused"], ["403", "ReadOnlyKey"], ["404", "NotFound"]),
        },
      },
    },
    "/api/commerce/files": {
      post: {
        operationId: "uploadFile",
        summary: "Upload an evidence file (multipart/form-data)",
        description:
          `Parts: purpose (${FILE_PURPOSES.join(", ")}) and file. PDF, PNG or JPEG, told by the bytes (an HTML page named .pdf is refused ` +
          `415 unsupported_file_type), 1 to ${FILE_MAX_BYTES} bytes (413 payload_too_large past it; an empty file 422 empty_file); ` +
          "kept with its SHA-256, in the key's mode. Missing parts answer 422 with /data/attributes/file or /data/attributes/purpose; " +
          "no boundary or an unreadable body 400 malformed_multipart.",
        requestBody: { required: true, content: { "multipart/form-data": { schema: UPLOAD_SCHEMA, examples: UPLOAD_EXAMPLES } } },
        responses: {
          "201": { description: "Stored", content: { [JSON_API]: { schema: ref("FileDocument") } } },
          "415": problemAnswer("Not multipart/form-data, or a file that is not a PDF, PNG or JPEG"),
          "413": problemAnswer("The file is over 5 MB, or the body over its limit"),
          ...errors(["400", "BadRequest"], ["403", "ReadOnlyKey"], ["422", "UnprocessableEntity"]),
        },
      },
    },
    "/api/commerce/files/{id}": {
      get: {
        operationId: "downloadFile",
        summary: "The file's bytes, as an attachment",
        description:
          "To its merchant only, in the key's mode (anything else 404). Content-Type is the type the bytes were checked to be, " +
          "with Content-Disposition: attachment and X-Content-Type-Options: nosniff.",
        parameters: [idOf(FILE_ID)],
        responses: {
          "200": {
            description: "The bytes",
            content: Object.fromEntries(FILE_TYPES.map((type) => [type, { schema: { type: "string", contentMediaType: type } }])),
          },
          ...errors(["400", "QueryRefused"], ["404", "NotFound"]),
        },
      },
    },
  };
}
