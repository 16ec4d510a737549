import type { InvoiceDirection } from "@/lib/providers";
import { problemsFromZod, type Result } from "@/lib/problems";
import { checkReservedCustomerMembers, type InvoiceRuleCode } from "./rules";
import { ENVELOPE_SCHEMAS, type InvoiceEnvelope } from "./schemas";
import { checkSavedCardRules } from "./saved-cards";

/** Every code a problem of an invoice request body may carry: the invoice API publishes these. */
export type InvoiceProblemCode =
  | InvoiceRuleCode
  | "required"
  | "invalid_type"
  | "invalid_value"
  | "invalid_format"
  | "invalid_card_number"
  | "unknown_attribute"
  | "too_long"
  | "too_short"
  | "out_of_range"
  | "invalid";

/**
 * Parses a request body for one endpoint; all problems are returned together, with paths from
 * the document root (`["data", "attributes", "amount"]`) and the `closed` set of codes.
 */
export function validateInvoice<D extends InvoiceDirection>(direction: D, body: unknown): Result<InvoiceEnvelope<D>> {
  const reserved = checkReservedCustomerMembers(body);
  const result = ENVELOPE_SCHEMAS[direction].safeParse(body);
  const savedCards = result.success ? checkSavedCardRules(direction, result.data as Parameters<typeof checkSavedCardRules>[1]) : [];
  if (result.success && reserved.length === 0 && savedCards.length === 0) return { ok: true, value: result.data as InvoiceEnvelope<D> };
  if (result.success) return { ok: false, problems: [...reserved, ...savedCards] };
  const problems = result.success ? [] : problemsFromZod(result.error.issues, { input: body, codes: "closed" });
  return { ok: false, problems: [...reserved, ...problems] };
}
