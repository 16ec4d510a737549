import "server-only";
import type { DisputeReason, DisputeStatus } from "@/lib/db/enums";
import type { DisputeReport, ProviderOutcome, RefundOutcome, SavedCard } from "@/lib/providers/kit/adapter";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { readBack, refusalOf, type DisputeRefusal } from "../server/dispute-answers";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import {
  D_CURRENCY_CODES,
  D_DISPUTE_STATES,
  D_REFUND_STATES,
  D_STATES,
  type DDispute,
  type DErrorCode,
  type DRefund,
  type DRefundState,
  type DTransaction,
} from "./wire";

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

/**
 * D's dispute words (../wire.ts): its numeric states and the scheme's numeric reason codes for the
 * service's dispute statuses and reasons, and its refusals. The sandbox words its disputes with
 * them, the adapter and the callbacks read them back (a reason code not in the table is `other`).
 */
export const D_DISPUTE_STATE: Readonly<Record<DisputeStatus, DDispute["state"]>> = {
  needs_response: D_DISPUTE_STATES.open,
  under_review: D_DISPUTE_STATES.reviewing,
  won: D_DISPUTE_STATES.won,
  lost: D_DISPUTE_STATES.lost,
  accepted: D_DISPUTE_STATES.accepted,
};
export const D_DISPUTE_REASONS: Readonly<Record<DisputeReason, number>> = {
  fraudulent: 4837,
  not_received: 4855,
  not_as_described: 4853,
  duplicate: 4834,
  credit_not_processed: 4860,
  other: 4999,
};
export const D_DISPUTE_REFUSALS: Readonly<Record<DisputeRefusal, DErrorCode>> = { deadline_passed: "response_deadline_passed", closed: "dispute_closed" };

/** A dispute (an answer or a notification) as the service's report; amounts in tiyin, the currency by its numeric code. */
export function disputeReportOf(dispute: DDispute): DisputeReport {
  const currency = Object.entries(D_CURRENCY_CODES).find(([, numeric]) => numeric === dispute.currency)?.[0] ?? dispute.currency;
  return {
    disputeReference: dispute.dispute_id,
    paymentReference: dispute.payment_id,
    ...(dispute.transaction_id ? { paymentKey: dispute.transaction_id } : {}),
    amountMinor: BigInt(dispute.amount),
    currency,
    reason: readBack(D_DISPUTE_REASONS, dispute.reason_code, "other"),
    providerReason: String(dispute.reason_code),
    status: readBack(D_DISPUTE_STATE, dispute.state, "needs_response"),
    evidenceDueBy: new Date(dispute.respond_by * 1000),
  };
}

/** D's refusal code of a dispute request, as the service's. */
export const disputeRefusalOf = (code: string | undefined) => refusalOf(D_DISPUTE_REFUSALS, (refusal) => refusal === code);
