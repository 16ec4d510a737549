import { z } from "zod";
import { formatMinor, parseAmount } from "@/lib/money";

/**
 * The invoice page's Capture and Void (components/invoices/authorization-forms.tsx) and their
 * actions (lib/actions/authorizations.ts): one schema each for form and action. The amount is
 * checked against the authorization by the service (lib/processing/authorization.ts) as for the
 * API; the form's own key, drawn when it opens, makes a double submit one capture.
 */
export const captureFormSchema = z.object({
  invoiceId: z.string().min(1).max(128),
  requestKey: z.string().min(8).max(64),
  amount: z.string().trim().min(1, "Enter the amount to capture.").max(32, "Enter an amount such as 10.50."),
});

export const voidFormSchema = z.object({
  invoiceId: z.string().min(1).max(128),
  requestKey: z.string().min(8).max(64),
});

/** The amount rule of a capture, in the form's words: more than zero, at most what was authorized. */
function checkCaptureAmount(value: string, currency: string, authorizedMinor: bigint): { ok: true; minor: bigint } | { ok: false; message: string } {
  const parsed = parseAmount(value, currency);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  if (parsed.minor <= 0n) return { ok: false, message: "amount must be more than zero" };
  if (parsed.minor > authorizedMinor)
    return { ok: false, message: `amount may be at most the authorized ${formatMinor(authorizedMinor, currency)} ${currency}` };
  return { ok: true, minor: parsed.minor };
}

/**
 * The form's schema in the browser: the same schema plus the amount rule against the authorization
 * the page shows, so "abc", "0" or more than authorized stop at Review, on the amount field. The
 * service checks again against the authorization at that moment.
 */
export function captureFormSchemaFor(currency: string, authorized: string) {
  const parsedAuthorized = parseAmount(authorized, currency);
  const authorizedMinor = parsedAuthorized.ok ? parsedAuthorized.minor : 0n;
  return captureFormSchema.superRefine((values, context) => {
    if (values.amount === "") return;
    const checked = checkCaptureAmount(values.amount, currency, authorizedMinor);
    if (!checked.ok) context.addIssue({ code: "custom", path: ["amount"], message: checked.message });
  });
}
