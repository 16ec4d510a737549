import { z } from "zod";
import { INVOICE_ID } from "@/lib/ids/patterns";
import type { InvoiceRow } from "../store";

/** The shape of an invoice id (lib/ids): anything else cannot exist. */
export { INVOICE_ID };

/**
 * Times a filter or cursor may name. Years 0000 and past 9999 are valid ISO 8601, but PostgreSQL
 * refuses them as written (`+010000-01-01T…`), so they are refused here with a clear message.
 */
export const EARLIEST = new Date(Date.UTC(1970, 0, 1));
export const LATEST = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const inRange = (value: string) => {
  const time = Date.parse(value);
  return !Number.isNaN(time) && time >= EARLIEST.getTime() && time <= LATEST.getTime();
};

/** The position after the last invoice of a page, in newest-first order: (created_at, id). */
export const cursorSchema = z.object({
  createdAt: z.string().regex(ISO_MS).refine(inRange),
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
