import type { z } from "zod";
import type { FileType } from "@/lib/disputes/contract";
import type { FileSummary } from "@/lib/disputes/files";
import type { fileResourceSchema } from "@/lib/disputes/resource-schemas";

export type FileResource = z.infer<typeof fileResourceSchema>;

const FILES_PATH = "/api/commerce/files";

/** The JSON:API file (no bytes: `links.self` serves them, as an attachment, to its merchant only). */
export function toFileResource(row: FileSummary, baseUrl: string): FileResource {
  const self = `${baseUrl}${FILES_PATH}/${row.id}`;
  return {
    id: row.id,
    type: "file",
    attributes: {
      purpose: "dispute_evidence",
      filename: row.filename,
      content_type: row.contentType as FileType,
      size: row.sizeBytes,
      sha256: row.sha256,
      test_mode: row.testMode,
      created: row.createdAt.toISOString(),
    },
    links: { self },
  };
}
