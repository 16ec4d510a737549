import { z } from "zod";
import { DATE_RANGE_TEXT, isCalendarDay, parseDay } from "@/lib/dates";
import { AUDIT_ACTIONS, AUDIT_GROUP_KEYS } from "./actions";

/** Days as the date inputs send them (UTC). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date as YYYY-MM-DD")
  .refine(isCalendarDay, "Enter a real date")
  .refine((v) => parseDay(v) !== undefined, `Enter a date ${DATE_RANGE_TEXT}`);

/** The Audit log page's filter, read from its URL: one schema for the form and the query. */
const auditFilterSchema = z
  .object({
    group: z.enum(AUDIT_GROUP_KEYS as [string, ...string[]], "Choose a type from the list").optional(),
    action: z.enum(Object.keys(AUDIT_ACTIONS) as [string, ...string[]], "Choose an action from the list").optional(),
    actor: z
      .string()
      .max(100, "Choose a person or key from the list")
      .regex(/^[A-Za-z0-9_:-]+$/, "Choose a person or key from the list")
      .optional(),
    from: day.optional(),
    to: day.optional(),
    page: z.coerce.number("Page must be a number").int("Page must be a whole number").min(1, "Page starts at 1").max(10_000, "Page is too far").optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: "The end date is before the start date", path: ["to"] });
export type AuditFilter = z.infer<typeof auditFilterSchema>;

const KEYS = ["group", "action", "actor", "from", "to", "page"] as const;

/**
 * The filter from the page's search parameters: every valid value, and a message per field whose
 * value is not (that field is then ignored, so a hand-edited URL still shows the log).
 */
export function readAuditFilter(params: Record<string, string | string[] | undefined>): {
  filter: AuditFilter;
  errors: Partial<Record<(typeof KEYS)[number], string>>;
} {
  const raw: Record<string, string> = {};
  for (const key of KEYS) {
    const value = params[key];
    const text = Array.isArray(value) ? value[0] : value;
    if (text) raw[key] = text;
  }
  const errors: Partial<Record<(typeof KEYS)[number], string>> = {};
  let parsed = auditFilterSchema.safeParse(raw);
  while (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path[0] as (typeof KEYS)[number] | undefined;
    if (!key || !(key in raw)) return { filter: {}, errors };
    errors[key] = issue.message;
    delete raw[key];
    parsed = auditFilterSchema.safeParse(raw);
  }
  return { filter: parsed.data, errors };
}
