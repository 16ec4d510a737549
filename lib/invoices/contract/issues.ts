import type { z } from "zod";
import type { InvoiceDirection } from "@/lib/providers";
import type { InvoiceRuleCode } from "./rules";
import { ENVELOPE_SCHEMAS, type InvoiceEnvelope } from "./schemas";
import { UNKNOWN_KEY_SEPARATOR } from "./strict-object";

export type InvoiceIssueCode =
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

/** One problem of a request body; `pointer` is the JSON:API `source.pointer` (RFC 6901). */
export type InvoiceIssue = { path: (string | number)[]; pointer: string; code: InvoiceIssueCode; message: string };

export type InvoiceValidation<T> = { ok: true; value: T } | { ok: false; issues: InvoiceIssue[] };

/** JSON:API `title` per code; `detail` carries the specific message. */
export const ISSUE_TITLES: Readonly<Record<InvoiceIssueCode, string>> = {
  unknown_service: "Unknown service",
  service_type_mismatch: "Service does not match invoice type",
  currency_mismatch: "Currency does not match service",
  invalid_amount: "Invalid amount",
  customer_conflict: "Customer sent more than once",
  too_deep: "Nested too deeply",
  invalid_character: "Character not allowed",
  required: "Required field missing",
  invalid_type: "Wrong type",
  invalid_value: "Value not allowed",
  invalid_format: "Wrong format",
  invalid_card_number: "Invalid card number",
  unknown_attribute: "Unknown field",
  too_long: "Value too long",
  too_short: "Value too short",
  out_of_range: "Value out of range",
  invalid: "Invalid value",
};

export function toJsonPointer(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

function valueAt(source: unknown, path: readonly PropertyKey[]): unknown {
  let current = source;
  for (const part of path) {
    if (typeof current !== "object" || current === null) return undefined;
    if (!Object.hasOwn(current, part)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

function sizeCode(origin: string, tooBig: boolean): InvoiceIssueCode {
  if (origin === "string" || origin === "array") return tooBig ? "too_long" : "too_short";
  return "out_of_range";
}

const KNOWN_CUSTOM_CODES = new Set<string>(Object.keys(ISSUE_TITLES));

function codeOf(issue: z.core.$ZodIssue, input: unknown): InvoiceIssueCode {
  switch (issue.code) {
    case "invalid_type":
    case "invalid_union":
      return valueAt(input, issue.path) === undefined ? "required" : "invalid_type";
    case "invalid_value":
      return valueAt(input, issue.path) === undefined ? "required" : "invalid_value";
    case "too_big":
      return sizeCode(issue.origin, true);
    case "too_small":
      return sizeCode(issue.origin, false);
    case "invalid_format":
      return "invalid_format";
    case "custom": {
      const code: unknown = issue.params?.code;
      return typeof code === "string" && KNOWN_CUSTOM_CODES.has(code) ? (code as InvoiceIssueCode) : "invalid";
    }
    default:
      return "invalid";
  }
}

/**
 * zod issues → JSON:API-ready issues. One unknown-keys issue becomes one issue per key, so each
 * error points at its own member; a missing field reads "x is required" rather than zod's type text.
 * Messages never include the submitted value (card numbers must not leak into responses or logs).
 */
export function toInvoiceIssues(issues: readonly z.core.$ZodIssue[], input: unknown): InvoiceIssue[] {
  const out: InvoiceIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map((part) => (typeof part === "number" ? part : String(part)));
    if (issue.code === "unrecognized_keys") {
      const messages = issue.message.split(UNKNOWN_KEY_SEPARATOR);
      issue.keys.forEach((key, index) => {
        const keyPath = [...path, key];
        const message = messages[index] ?? `Unknown field "${key}"`;
        out.push({ path: keyPath, pointer: toJsonPointer(keyPath), code: "unknown_attribute", message });
      });
      continue;
    }
    const code = codeOf(issue, input);
    const field = path.at(-1);
    const message = code === "required" && field !== undefined ? `${String(field)} is required` : issue.message;
    out.push({ path, pointer: toJsonPointer(path), code, message });
  }
  return out;
}

/** Parses a request body for one endpoint; all problems are returned together. */
export function validateInvoice<D extends InvoiceDirection>(
  direction: D,
  body: unknown,
): InvoiceValidation<InvoiceEnvelope<D>> {
  const result = ENVELOPE_SCHEMAS[direction].safeParse(body);
  if (result.success) return { ok: true, value: result.data as InvoiceEnvelope<D> };
  return { ok: false, issues: toInvoiceIssues(result.error.issues, body) };
}
