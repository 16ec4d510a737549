import { z } from "zod";
import { DATE_RANGE_TEXT, isCalendarDay, parseDay } from "@/lib/dates";

export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;

/** Days as the date inputs send them. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date as YYYY-MM-DD")
  .refine(isCalendarDay, "Enter a real date")
  .refine((v) => parseDay(v) !== undefined, `Enter a date ${DATE_RANGE_TEXT}`);

/** `<milliseconds>.<id>`: the last entry of the page before (keyset pages, newest first). */
const CURSOR = /^(\d{1,15})\.(rql_[A-Za-z0-9_-]{1,40})$/;

/** The Logs page's filter, read from its URL (GET form): one schema for the form and the query. */
const requestLogFilterSchema = z
  .object({
    /** Which mode's requests, when the link says (an invoice's Requests); else the dashboard's Test/Live view. */
    mode: z.enum(["test", "live"], "Choose test or live").optional(),
    status: z.enum(STATUS_CLASSES, "Choose a status class from the list").optional(),
    path: z
      .string()
      .max(200, "Enter at most 200 characters of the path")
      .regex(/^\/[\x21-\x7e]*$/, "Enter a path starting with /, such as /api/commerce/payment-invoices")
      .optional(),
    key: z
      .string()
      .max(100, "Choose a key from the list")
      .regex(/^key_[A-Za-z0-9_-]+$/, "Choose a key from the list")
      .optional(),
    invoice: z
      .string()
      .max(100, "Enter an invoice id such as cpi_…")
      .regex(/^(?:cpi|cpoi)_[A-Za-z0-9_-]+$/, "Enter an invoice id such as cpi_…")
      .optional(),
    from: day.optional(),
    to: day.optional(),
    after: z.string().max(80, "The page position is not one this page made").regex(CURSOR, "The page position is not one this page made").optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: "The end date is before the start date", path: ["to"] });
export type RequestLogFilter = z.infer<typeof requestLogFilterSchema>;

const REQUEST_LOG_FILTER_KEYS = ["mode", "status", "path", "key", "invoice", "from", "to", "after"] as const;
type FilterKey = (typeof REQUEST_LOG_FILTER_KEYS)[number];

/**
 * The filter from the page's search parameters: every valid value, and a message per field whose
 * value is not (that field is then ignored, so a hand-edited URL still shows the log).
 */
export function readRequestLogFilter(params: Record<string, string | string[] | undefined>): {
  filter: RequestLogFilter;
  errors: Partial<Record<FilterKey, string>>;
} {
  const raw: Record<string, string> = {};
  for (const key of REQUEST_LOG_FILTER_KEYS) {
    const value = params[key];
    const text = (Array.isArray(value) ? value[0] : value)?.trim();
    if (text) raw[key] = text;
  }
  const errors: Partial<Record<FilterKey, string>> = {};
  let parsed = requestLogFilterSchema.safeParse(raw);
  while (!parsed.success) {
    const key = parsed.error.issues[0]!.path[0] as FilterKey | undefined;
    if (!key || !(key in raw)) return { filter: {}, errors };
    errors[key] = parsed.error.issues[0]!.message;
    delete raw[key];
    parsed = requestLogFilterSchema.safeParse(raw);
  }
  return { filter: parsed.data, errors };
}

/** A page position: the last entry shown. */
export function cursorOf(entry: { createdAt: Date; id: string }): string {
  return `${entry.createdAt.getTime()}.${entry.id}`;
}

export function parseCursor(text: string): { at: Date; id: string } | undefined {
  const match = CURSOR.exec(text);
  return match ? { at: new Date(Number(match[1])), id: match[2]! } : undefined;
}
