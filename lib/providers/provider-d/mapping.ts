import "server-only";
import type { ProviderOutcome, RefundOutcome, SavedCard } from "@/lib/providers/kit/adapter";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import { D_REFUND_STATES, D_STATES, type DRefund, type DRefundState, type DTransaction } from "./wire";

/**
 * What Provider D's words mean for the invoice, read by the adapter and the callbacks and, the
 * other way round, by the sandbox when it rejects a test card.
 */

/** D's reject codes on a rejected sale (its own numbering, negative like all its errors); D has no 3-D Secure. */
export const D_REJECT_CODES = {
  issuer_decline: -31630,
  insufficient_funds: -31631,
  invalid_cvv: -31632,
} as const satisfies Partial<Record<CodedDecline, number>>;

/** A transaction (a sale's answer, a status or a notification's) as the service's outcome. */
export function outcomeOfTransaction(
  transaction: Pick<DTransaction, "payment_id" | "state" | "captured_amount" | "reject_code"> &
    Partial<Pick<DTransaction, "card_token" | "card_expiry" | "card_mask">>,
): ProviderOutcome {
  const providerReference = transaction.payment_id;
  if (transaction.state === D_STATES.performed || transaction.state === D_STATES.performedPartly) {
    return { kind: "succeeded", providerReference, processedAmountMinor: BigInt(transaction.captured_amount), ...savedCardOf(transaction) };
  }
  if (transaction.state === D_STATES.failed) {
    return { kind: "soft_failed", resolution: "provider_unavailable", providerReference, message: "Provider D could not process the sale" };
  }
  const resolution = declineResolution<number>(D_REJECT_CODES, (code) => code === transaction.reject_code);
  return { kind: "declined", resolution, providerReference, message: `Provider D rejected the sale (reject code ${transaction.reject_code ?? "none"})` };
}

/** D's refund states and reject codes: the sandbox words its decisions with them, the adapter reads them back. */
export const D_REFUND_STATE: Readonly<Record<SandboxRefundStatus, DRefundState>> = {
  succeeded: D_REFUND_STATES.performed,
  pending: D_REFUND_STATES.processing,
  declined: D_REFUND_STATES.rejected,
};
export const D_REFUND_REJECT_CODES: Readonly<Record<SandboxRefundDecline, { code: number; meaning: string }>> = {
  declined: { code: -31640, meaning: "the issuer refused the refund" },
  exceeds: { code: -31641, meaning: "the refunds would exceed the captured amount" },
};

/** A refund (an answer or a status) as the service's outcome. */
export function refundOutcomeOf(refund: DRefund): RefundOutcome {
  const providerReference = refund.refund_id;
  switch (refund.state) {
    case D_REFUND_STATES.performed:
      return { kind: "succeeded", providerReference };
    case D_REFUND_STATES.processing:
      return { kind: "pending", providerReference };
    case D_REFUND_STATES.rejected: {
      const known = Object.values(D_REFUND_REJECT_CODES).find((reject) => reject.code === refund.reject_code);
      return {
        kind: "declined",
        providerReference,
        message: `Provider D rejected the refund (reject code ${refund.reject_code ?? "none"}${known ? `: ${known.meaning}` : ""})`,
      };
    }
  }
}

/** D's saved card (`card_token`, `card_expiry` YYMM, the last four of `card_mask`), when the sale kept it. */
function savedCardOf(transaction: Partial<Pick<DTransaction, "card_token" | "card_expiry" | "card_mask">>): { savedCard?: SavedCard } {
  const expiry = /^(\d{2})(\d{2})$/.exec(transaction.card_expiry ?? "");
  if (!transaction.card_token || !expiry || !transaction.card_mask) return {};
  const lastFour = transaction.card_mask.replace(/\D/g, "").slice(-4);
  return { savedCard: { token: transaction.card_token, brand: null, lastFour, expiryMonth: Number(expiry[2]), expiryYear: 2000 + Number(expiry[1]) } };
}
