import "server-only";
import type { Db } from "@/lib/db/client";
import { payWithCard } from "@/lib/processing/engine";
import { isWebUrl } from "@/lib/http/web-url";
import { fail, ok, problemsFromZod, refuse, type Result } from "@/lib/problems";
import { cardSchema } from "./card-schema";
import { findHostedInvoice, type HostedInvoice } from "./hosted-invoice";
import { payLimitMessage, takePayTry } from "./pay-limit";

/**
 * What the hosted page learns from "Pay": the invoice as it now stands (with `refused`, why no
 * payment was taken), or where 3-D Secure happens.
 */
export type PayAnswer = { kind: "result"; invoice: HostedInvoice; refused?: string } | { kind: "redirect"; url: string };

const EXPIRED_REFUSAL = "This payment link has expired, so no payment was taken. Ask the merchant for a new link.";

/** The code of the refusal for an invoice that does not exist (the route answers it with a 404). */
export const GONE_CODE = "not_found";

const GONE = refuse(GONE_CODE, "This payment page does not exist.");

/**
 * The hosted page's payment: the card is parsed with the form's own schema (CVC only where the
 * provider takes one), handed to the engine and forgotten. The answer carries the invoice's
 * public view, never anything of the card; a paid or final invoice is shown, not charged again.
 * Each invoice takes a limited number of Pay submissions (pay-limit.ts); the risk rules (lib/risk)
 * may refuse a Pay with "This payment could not be completed; try again later" before any provider.
 */
export async function payHostedInvoice(db: Db, invoiceId: string, input: unknown, context: { address?: string | null } = {}): Promise<Result<PayAnswer>> {
  const invoice = await findHostedInvoice(db, invoiceId);
  if (!invoice) return GONE;
  if (!invoice.canPay) {
    const refused = invoice.outcome.kind === "closed" && invoice.outcome.expired ? EXPIRED_REFUSAL : undefined;
    return ok({ kind: "result", invoice, ...(refused ? { refused } : {}) });
  }
  // Every Pay on a payable invoice counts, before the card is read: a limit per invoice (lib/pay/pay-limit.ts).
  const wait = await takePayTry(invoice.id);
  if (wait > 0) return refuse("rate_limited", payLimitMessage(wait));
  const parsed = cardSchema({ takesCvc: invoice.takesCvc }).safeParse(input);
  if (!parsed.success) return fail(problemsFromZod(parsed.error.issues));

  const result = await payWithCard(db, invoiceId, parsed.data, { address: context.address ?? null });
  if (result.kind === "refused") {
    const now = await findHostedInvoice(db, invoiceId);
    // Someone else's click got there first (another tab), or the lifetime ended meanwhile: show where the invoice now stands.
    if (now && !now.canPay) {
      const refused = result.problems.some((entry) => entry.code === "invoice_expired") ? EXPIRED_REFUSAL : undefined;
      return ok({ kind: "result", invoice: now, ...(refused ? { refused } : {}) });
    }
    return refuse("payment_refused", result.problems.map((entry) => entry.message).join(" ") || "The payment could not be started.");
  }
  // Only a web address may be followed; anything else from a provider is treated as no answer.
  if (result.kind === "redirect" && isWebUrl(result.url)) return ok({ kind: "redirect", url: result.url });
  const now = await findHostedInvoice(db, invoiceId);
  return now ? ok({ kind: "result", invoice: now }) : GONE;
}
