import "server-only";
import { createHash } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchantFiles } from "@/lib/db/schema";
import { newFileId } from "@/lib/ids";
import { FILE_ID } from "@/lib/ids/patterns";
import { problem, type Problem } from "@/lib/problems";
import type { Mode } from "@/lib/providers";
import { findUnsafeText } from "@/lib/text-safety";
import { FILE_MAX_BYTES, FILE_PURPOSES, type FileType } from "./contract";

/**
 * Uploaded files (`POST /api/commerce/files`): dispute evidence, kept in the database with their
 * SHA-256. The type is told by the bytes alone (a PDF's `%PDF-`, PNG's signature, JPEG's SOI
 * marker), never by the name or the declared type, so an HTML page called evidence.pdf is refused;
 * the file is served back only to its merchant, as an attachment of its checked type.
 */

export type FileRow = typeof merchantFiles.$inferSelect;
export type FileSummary = Omit<FileRow, "data">;

const FILENAME_MAX = 255;

const startsWith = (bytes: Uint8Array, signature: readonly number[]) => signature.every((byte, index) => bytes[index] === byte);

/** The type the bytes are, or undefined when they are none of PDF, PNG, JPEG. */
function sniffFileType(bytes: Uint8Array): FileType | undefined {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  return undefined;
}

/** A name safe to store and to give back in Content-Disposition: no path, no control characters, bounded. */
function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, "").trim();
  return (cleaned || "evidence").slice(0, FILENAME_MAX);
}

export type UploadInput = { merchantId: string; testMode: boolean; purpose: unknown; file: unknown; createdBy: string };

export type UploadResult =
  | { kind: "created"; file: FileSummary }
  | { kind: "invalid"; problems: Problem[] }
  | { kind: "too_large"; detail: string }
  | { kind: "unsupported_type"; detail: string };

const FILE_POINTER = ["data", "attributes", "file"];
const PURPOSE_POINTER = ["data", "attributes", "purpose"];

/** Checks and stores one uploaded file (the form's `file` part and its `purpose` field). */
export async function uploadFile(db: Db, input: UploadInput): Promise<UploadResult> {
  const problems: Problem[] = [];
  if (input.purpose === undefined || input.purpose === null)
    problems.push(problem("required", `purpose is required: one of ${FILE_PURPOSES.join(", ")}`, PURPOSE_POINTER));
  else if (typeof input.purpose !== "string" || !(FILE_PURPOSES as readonly string[]).includes(input.purpose))
    problems.push(problem("invalid_value", `purpose must be one of ${FILE_PURPOSES.join(", ")}`, PURPOSE_POINTER));
  if (input.file === undefined || input.file === null)
    problems.push(problem("required", "file is required: send the file as the form part named file", FILE_POINTER));
  else if (!(input.file instanceof Blob)) problems.push(problem("invalid_value", "file must be a file part (with a filename), not a text field", FILE_POINTER));
  if (problems.length > 0) return { kind: "invalid", problems };
  const file = input.file as File;
  if (file.size > FILE_MAX_BYTES) return { kind: "too_large", detail: `The file must not exceed ${FILE_MAX_BYTES} bytes (5 MB); it has ${file.size}.` };
  if (file.size === 0) return { kind: "invalid", problems: [problem("empty_file", "The file is empty", FILE_POINTER)] };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffFileType(bytes);
  if (!type) return { kind: "unsupported_type", detail: "The file must be a PDF, PNG or JPEG (told by its content, not its name or declared type)." };
  const filename = cleanFilename(typeof file.name === "string" ? file.name : "");
  if (findUnsafeText(filename) !== undefined)
    return { kind: "invalid", problems: [problem("invalid_value", "The file name holds characters that cannot be kept", FILE_POINTER)] };
  const data = Buffer.from(bytes);
  const [row] = await db
    .insert(merchantFiles)
    .values({
      id: newFileId(),
      merchantId: input.merchantId,
      testMode: input.testMode,
      purpose: input.purpose as string,
      filename,
      contentType: type,
      sizeBytes: data.byteLength,
      sha256: createHash("sha256").update(data).digest("hex"),
      data,
      createdBy: input.createdBy,
    })
    .returning();
  const { data: _data, ...summary } = row!;
  return { kind: "created", file: summary };
}

/** The merchant's file with its bytes; another merchant's, the other mode's than the key's, or none: undefined. */
export async function findFile(db: Db, merchantId: string, id: string, mode?: Mode): Promise<FileRow | undefined> {
  if (!FILE_ID.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(merchantFiles)
    .where(and(eq(merchantFiles.id, id), eq(merchantFiles.merchantId, merchantId)))
    .limit(1);
  if (!row || (mode && row.testMode !== (mode === "test"))) return undefined;
  return row;
}

/** The names, types and sizes of the merchant's files among `ids` (no bytes), for the dispute page's list. */
export async function describeFiles(
  db: Db,
  merchantId: string,
  ids: readonly string[],
): Promise<Pick<FileRow, "id" | "filename" | "contentType" | "sizeBytes">[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: merchantFiles.id, filename: merchantFiles.filename, contentType: merchantFiles.contentType, sizeBytes: merchantFiles.sizeBytes })
    .from(merchantFiles)
    .where(and(eq(merchantFiles.merchantId, merchantId), inArray(merchantFiles.id, [...ids])));
  const order = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}
