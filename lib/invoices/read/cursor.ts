import { z } from "zod";
import { parseIsoInstant } from "@/lib/dates";
import { INVOICE_ID } from "@/lib/ids/patterns";
import type { InvoiceRow } from "../store";

/** The shape of an invoice id (lib/ids): anything else cannot exist. */
export { INVOICE_ID };

/** The position after the last invoice of a page, in newest-first order: (created_at, id). */
export const cursorSchema = z.object({
  createdAt: z.string().refine((value) => parseIsoInstant(value) !== undefined),
  id: z.string().regex(INVOICE_ID),
});

export type Cursor = z.output<typeof cursorSchema>;

/** Opaque to clients; the API's links.next and the dashboard's "Show more" carry the same cursor. */
export function encodeCursor(row: Pick<InvoiceRow, "createdAt" | "id">): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString("base64url");
}

export function decodeCursor(value: string): Cursor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [createdAt, id] = parsed as unknown[];
    const cursor = cursorSchema.safeParse({ createdAt, id });
    return cursor.success ? cursor.data : undefined;
  } catch {
    return undefined;
  }
}
