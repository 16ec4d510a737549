import type { FormErrors } from "@/lib/actions/result";
import { ENVELOPE_FIELD, pointerToField } from "./pointers";

type ErrorObject = { status?: unknown; code?: unknown; title?: unknown; detail?: unknown; source?: { pointer?: unknown } | null };

function errorsOf(body: unknown): ErrorObject[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? errors.filter((error): error is ErrorObject => typeof error === "object" && error !== null) : [];
}

const textOf = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * The API's JSON:API errors as form errors, the shape a failed action returns: each on the input
 * its `source.pointer` names (same mapper as the browser's checks), and for the alert the HTTP
 * status with everything no input holds.
 */
export function placeApiErrors(status: number, body: unknown): FormErrors & { message: string } {
  const fieldErrors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const error of errorsOf(body)) {
    const pointer = textOf(error.source?.pointer);
    const message = textOf(error.detail) ?? textOf(error.title) ?? "Refused";
    const field = pointerToField(pointer);
    if (field && field !== ENVELOPE_FIELD) fieldErrors[field] ??= message;
    else unplaced.push(pointer ? `${pointer}: ${message}` : message);
  }
  let summary = "The API refused the invoice; see the marked fields.";
  if (unplaced.length > 0) summary = unplaced.join(" ");
  else if (Object.keys(fieldErrors).length === 0) summary = "The API gave no error details; see its answer below.";
  return { fieldErrors, message: `HTTP ${status}: ${summary}` };
}
