import "server-only";
import type { Db } from "@/lib/db/client";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { findService } from "@/lib/providers";
import { problem, type Problem } from "@/lib/problems";
import type { CardInput, PaymentInstruction, PayoutInstruction } from "@/lib/providers/kit/adapter";
import { findOpenAttempt } from "./attempts";
import { publicBaseUrl } from "@/lib/config";
import { NOT_FOUND, runPaymentRequest, type PayResult } from "./request";
import { applyAttemptOutcome } from "./apply-outcome";
import { queryAttemptStatus } from "./run-attempt";
import { ProblemsError } from "@/lib/errors";
import { cardFactsOf } from "@/lib/cards/bin";
import { cardLastFour } from "@/lib/cards/card-number";
import { paymentSavesCard } from "@/lib/payment-methods/store";
import { usableToken } from "@/lib/payment-methods/tokens";
import { riskGate } from "./risk-gate";
import { asksForThreeDs } from "@/lib/invoices/three-ds";

export type { PayResult } from "./request";

/**
 * The processing engine's entry points: the hosted page's payment, the payout, the
 * bypass of the hosted page and the return from 3-D Secure. Each goes through runPaymentRequest
 * (lock, attempts, cascade, settle); the adapters only translate.
 */

/** Where the provider sends the customer back after 3-D Secure: the hosted page, which resumes. */
function paymentReturnUrl(invoiceId: string): string {
  return `${publicBaseUrl()}/pay/${invoiceId}`;
}

function baseInstruction(invoice: InvoiceRow, attemptId: string) {
  return {
    invoiceId: invoice.id,
    referenceId: invoice.referenceId,
    attemptId,
    idempotencyKey: attemptId,
    service: invoice.service,
    currency: invoice.currency,
    amount: invoice.amount,
    amountMinor: invoice.amountMinor,
    allowPartially: invoice.options.allow_partially === true,
    customer: invoice.resolvedCustomer,
    options: invoice.options,
  };
}

function paymentInstruction(invoice: InvoiceRow, attemptId: string, card: CardInput): PaymentInstruction {
  return {
    ...baseInstruction(invoice, attemptId),
    card,
    gatewayOptions: invoice.gatewayOptions,
    serviceFields: invoice.serviceFields,
    returnUrl: paymentReturnUrl(invoice.id),
    ...(invoice.flow === "authorize" ? { authorizeOnly: true } : {}),
    ...(asksForThreeDs(invoice) ? { requireThreeDs: true } : {}),
    ...(paymentSavesCard(invoice) ? { tokenize: true } : {}),
  };
}

const cardSecrets = (card: CardInput) => [card.number, card.number.replace(/\D/g, ""), card.cvc ?? ""].filter((value) => value.length >= 4);

/**
 * The hosted page's "Pay": the card lives only in this call and is redacted from every log. The
 * risk check (blocklist, velocity limits) runs first with the client's `address`; a refusal never
 * reaches a provider.
 */
export async function payWithCard(db: Db, invoiceId: string, card: CardInput, options: { address?: string | null } = {}): Promise<PayResult> {
  return runPaymentRequest(db, invoiceId, {
    direction: "payment",
    secrets: cardSecrets(card),
    risk: (tx, invoice) => riskGate(tx, invoice, card, options.address ?? null),
    cardFacts: cardFactsOf(card.number),
    cardLastFour: cardLastFour(card.number),
    call: async (adapter, context, attempt) => {
      const instruction = paymentInstruction((await readInvoice(db, invoiceId))!, attempt.id, card);
      // An authorization goes only to an adapter that can capture it later: never charged instead.
      if (instruction.authorizeOnly && !adapter.capture) {
        return {
          kind: "soft_failed",
          resolution: "provider_unavailable",
          message: "This connection's adapter cannot authorize without capturing yet; nothing was sent.",
        };
      }
      return adapter.createPayment(context, instruction);
    },
  });
}

/**
 * Provider F's `options.bypass_hpp`: the payment goes to the provider at creation, without the
 * hosted page and without a card (the provider collects it on its side; its sandbox succeeds it
 * at once in test mode). Only adapters that implement createPaymentWithoutCard accept it.
 */
export async function payWithoutHostedPage(db: Db, invoiceId: string): Promise<PayResult> {
  return runPaymentRequest(db, invoiceId, {
    direction: "payment",
    secrets: [],
    check: (invoice) => (invoice.options.bypass_hpp === true ? [] : [problem("bypass_not_requested", "This invoice did not ask to bypass the hosted page.")]),
    call: async (adapter, context, attempt) => {
      const invoice = (await readInvoice(db, invoiceId))!;
      // Without a card there is no 3-D Secure step to ask for: the provider collects the card on its side.
      const {
        card: _card,
        requireThreeDs: _threeDs,
        ...instruction
      } = paymentInstruction(invoice, attempt.id, { number: "", expiryMonth: 0, expiryYear: 0, holder: "" });
      if (!adapter.createPaymentWithoutCard) {
        return { kind: "declined", resolution: "general_error", message: "This provider cannot take a payment without its hosted page." };
      }
      return adapter.createPaymentWithoutCard(context, instruction);
    },
  });
}

function payoutProblems(invoice: InvoiceRow): Problem[] {
  return findService(invoice.service)?.direction === "payout" ? [] : [problem("payout_not_supported", `${invoice.service} is not a payout service.`)];
}

/**
 * Sends a payout (auto_process right after creation, or POST …/process, or the owner's button).
 * `cardNumber` is the full number the creation request carried, in memory only; without it the
 * stored masked number goes (the spec's examples send the masked form). Refusals throw
 * ProblemsError.
 */
export async function processPayout(db: Db, invoiceId: string, options: { cardNumber?: string; afterConnectionId?: string } = {}): Promise<InvoiceRow> {
  const result = await runPaymentRequest(db, invoiceId, {
    direction: "payout",
    afterConnectionId: options.afterConnectionId,
    secrets: options.cardNumber ? [options.cardNumber] : [],
    check: payoutProblems,
    call: async (adapter, context, attempt) => {
      const invoice = (await readInvoice(db, invoiceId))!;
      if (!adapter.createPayout) return { kind: "declined", resolution: "general_error", message: "This provider makes no payouts." };
      const instruction: PayoutInstruction = {
        ...baseInstruction(invoice, attempt.id),
        cardNumber: options.cardNumber ?? invoice.cardNumberMasked ?? "",
        splitMode: invoice.options.split_mode === true,
      };
      return adapter.createPayout(context, instruction);
    },
  });
  if (result.kind === "refused") throw new ProblemsError(result.problems);
  return result.invoice;
}

/**
 * After the customer's 3-D Secure step: one status request for the waiting attempt decides. A
 * second call while the first settles finds the invoice moved and returns it as it is.
 */
export async function resumeAfterRedirect(db: Db, invoiceId: string): Promise<InvoiceRow> {
  const invoice = await readInvoice(db, invoiceId);
  if (!invoice) throw new ProblemsError([NOT_FOUND()]);
  if (invoice.status !== "process_pending") return invoice;
  const attempt = await findOpenAttempt(db, invoiceId);
  if (!attempt) return invoice;
  const { outcome, exchanges } = await queryAttemptStatus(db, invoice, attempt);
  const applied = await applyAttemptOutcome(db, { invoiceId, attemptId: attempt.id, outcome, exchanges, reason: "status request after redirect" });
  return applied.kind === "applied" ? applied.invoice : ((await readInvoice(db, invoiceId)) ?? invoice);
}

/**
 * A saved card charged at creation (data.relationships.payment_method): server to server,
 * without the hosted page, through the adapter's token half with the provider's token, unsealed for
 * this call only and redacted from every exchange. The method is read again before each attempt,
 * so a card detached meanwhile is never charged. 3-D Secure leaves the invoice process_pending with
 * the attempt's redirect, which the hosted page then offers (it never asks for the card again).
 */
export async function payWithSavedCard(db: Db, invoiceId: string, method: { id: string; merchantId: string; lastFour: string }): Promise<PayResult> {
  return runPaymentRequest(db, invoiceId, {
    direction: "payment",
    secrets: [],
    cardLastFour: method.lastFour,
    call: async (adapter, context, attempt) => {
      const invoice = (await readInvoice(db, invoiceId))!;
      if (!adapter.tokens) return { kind: "declined", resolution: "general_error", message: "This provider cannot charge a saved card." };
      const token = await usableToken(db, method);
      if (!token) return { kind: "declined", resolution: "general_error", message: "The saved card was detached; it cannot be charged." };
      // A saved card is charged by the merchant, not at the customer's Pay: a rule's 3-D Secure is not asked (no customer to challenge).
      const {
        card: _card,
        tokenize: _tokenize,
        requireThreeDs: _threeDs,
        ...instruction
      } = paymentInstruction(invoice, attempt.id, { number: "", expiryMonth: 0, expiryYear: 0, holder: "" });
      // As at Pay: an authorization goes only to an adapter that can capture it later, never charged instead.
      if (instruction.authorizeOnly && !adapter.capture) {
        return {
          kind: "soft_failed",
          resolution: "provider_unavailable",
          message: "This connection's adapter cannot authorize without capturing; nothing was sent.",
        };
      }
      return adapter.tokens.createPaymentWithToken(context, { ...instruction, cardToken: token });
    },
  });
}
