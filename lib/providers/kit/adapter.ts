import "server-only";
import type { ConnectionKind, CredentialValues, Mode } from "@/lib/providers";
import type { DisputeReason, DisputeStatus, Resolution } from "@/lib/db/enums";
import type { ExchangeRecorder } from "@/lib/providers/kit/provider-http";

/**
 * The one interface every provider adapter implements. An adapter is the service's
 * client for one provider's API: it knows only a base URL and the connection's credentials,
 * translates between the service's types below and the provider's wire format in one place, and
 * authenticates the way that provider does. It speaks real HTTP through `callProvider`, so the
 * sandbox (test mode) and the live API are reached by the same code.
 */

/** What an adapter knows about the connection it calls with. Credentials are decrypted, server only. */
export type AdapterContext = {
  connectionId: string;
  /** The provider's slug, for `callProvider`'s metrics. */
  provider?: string;
  kind: ConnectionKind;
  mode: Mode;
  /** Sandbox on this server in test mode; the provider's live URL (or D's `api_url`) in live mode. */
  baseUrl: string;
  credentials: CredentialValues;
  /** Every request and answer of this call goes here, redacted, for the attempt log. */
  exchanges: ExchangeRecorder;
  /** Per request; `callProvider` aborts after it and reports an unknown outcome. */
  timeoutMs: number;
  /**
   * Checked by `callProvider` before each request: a refusal (why) means the request is not sent.
   * Set in live mode when the address is the connection's own (Provider D's api_url).
   */
  guardUrl?: (url: string) => Promise<string | undefined>;
  /** Connect only to public addresses, checked as the socket connects (Provider D's own api_url in live mode). */
  publicAddressOnly?: boolean;
  /**
   * Test connection of values not saved yet, in test mode: the sandbox checks the request against
   * these values alone (lib/sandbox/unsaved-account.ts), never against a saved account.
   */
  unsavedAccountToken?: string;
};

/** The card as the customer typed it. Lives only in memory for the one provider call. */
export type CardInput = {
  number: string;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
  /** Absent where the provider takes no CVC (Provider D's example). */
  cvc?: string;
  holder: string;
};

export type PaymentInstruction = {
  invoiceId: string;
  /** The merchant's reference_id, for providers that hand it back (Provider F's send_operation_context_on_return). */
  referenceId?: string;
  attemptId: string;
  /** Sent to the provider so a retried request cannot charge twice. */
  idempotencyKey: string;
  service: string;
  currency: string;
  /** Decimal text, exactly as the invoice holds it. */
  amount: string;
  amountMinor: bigint;
  allowPartially: boolean;
  card: CardInput;
  /** What the provider receives about the customer (request, constants, defaults). */
  customer: Record<string, unknown>;
  options: Record<string, unknown>;
  gatewayOptions: Record<string, unknown> | null;
  serviceFields: unknown[] | null;
  /** Where the provider sends the customer back after a 3-D Secure step. */
  returnUrl: string;
  /** `flow: "authorize"`: reserve the amount and take nothing until a capture; only providers with `authorizeCapture` are sent it. */
  authorizeOnly?: boolean;
  /**
   * A routing rule requires 3-D Secure (require_three_ds): the provider is asked to authenticate the
   * customer, and its sandbox challenges every card but the frictionless test card. Only providers
   * with the `threeDSecure` capability are sent it (routing passes over the others).
   */
  requireThreeDs?: boolean;
  /** Save the card behind a token once the payment succeeds (gateway_options.cardgate.tokenize and a customer reference). */
  tokenize?: boolean;
};

export type PayoutInstruction = Omit<PaymentInstruction, "card" | "returnUrl" | "gatewayOptions" | "serviceFields"> & {
  /** The destination card number (full, or the masked form the spec's examples send). */
  cardNumber: string;
  splitMode: boolean;
};

export type PayoutPartOutcome = {
  providerReference: string;
  amountMinor: bigint;
  status: "succeeded" | "failed" | "pending";
};

/**
 * A provider's answer, mapped. Hard declines end the invoice; soft failures may cascade to the
 * next connection; an unknown outcome (timeout after the request left) is settled by a status
 * request before anything is retried.
 */
export type ProviderOutcome =
  | {
      kind: "succeeded";
      providerReference: string;
      processedAmountMinor: bigint;
      feeMinor?: bigint;
      parts?: PayoutPartOutcome[];
      /** An authorization (`authorizeOnly`): nothing was taken yet, `processedAmountMinor` is what was reserved, and until when. */
      authorized?: { until?: Date };
      /** The card saved behind a token, when the payment asked for one (gateway_options.cardgate.tokenize). */
      savedCard?: SavedCard;
    }
  | {
      kind: "pending";
      providerReference: string;
      /** A page the customer must visit (3-D Secure), when the provider asks for one. */
      redirectUrl?: string;
      parts?: PayoutPartOutcome[];
    }
  | { kind: "declined"; resolution: HardDecline; providerReference?: string; message: string }
  | { kind: "soft_failed"; resolution: SoftFailure; providerReference?: string; message: string }
  | { kind: "unknown"; providerReference?: string; message: string };

export type HardDecline = Extract<Resolution, "issuer_decline" | "insufficient_funds" | "invalid_cvv" | "auth_3ds_failed" | "general_error">;
type SoftFailure = Extract<Resolution, "provider_unavailable" | "provider_auth_error" | "mode_mismatch">;

export type HealthResult =
  | { kind: "ok"; message: string }
  /** `field` names the credential most likely wrong, for the form; `found`, what was found wrong before anything was sent. */
  | { kind: "credentials_refused"; field?: string; message: string; found?: string }
  | { kind: "unreachable"; message: string };

/**
 * A refund of a processed payment. `refundId` is the provider's idempotency key: the same refund
 * sent twice is one refund. It goes to the connection that took the payment, which knows the
 * payment by its reference (and by the attempt's idempotency key).
 */
export type RefundInstruction = {
  refundId: string;
  invoiceId: string;
  /** The provider's reference of the payment (the successful attempt's). */
  paymentReference: string;
  /** The idempotency key the payment was sent with (the attempt's id). */
  paymentKey: string;
  currency: string;
  /** Decimal text in the currency's exponent. */
  amount: string;
  amountMinor: bigint;
  reason?: string;
};

/**
 * A provider's answer about a refund. `refused`: the provider did not take it (unavailable, or the
 * request itself was refused), so nothing was refunded; `unknown`: it may have been, and only a
 * status request (or a callback) may say, never a resend with another key.
 */
export type RefundOutcome =
  | { kind: "succeeded"; providerReference: string }
  | { kind: "pending"; providerReference: string }
  | { kind: "declined"; providerReference?: string; message: string }
  | { kind: "refused"; resolution: Extract<Resolution, "provider_unavailable" | "provider_auth_error" | "mode_mismatch" | "general_error">; message: string }
  | { kind: "unknown"; providerReference?: string; message: string };

/**
 * A payout cancel's answer. `canceled`: nothing was paid; `partially_canceled`: the parts already
 * paid stay paid (`paidMinor`); `too_late`: the provider had already completed or failed it (a
 * status request says how); `refused`: not taken (nothing changed); `unknown`: no answer.
 */
export type CancelPayoutOutcome =
  | { kind: "canceled" | "partially_canceled"; providerReference: string; paidMinor: bigint; parts?: PayoutPartOutcome[] }
  | { kind: "too_late"; message: string }
  | { kind: "refused"; message: string }
  | { kind: "unknown"; message: string };

/**
 * A capture of an authorized payment. `captureId` is the provider's idempotency key (one
 * capture per invoice, so the same capture sent twice is one). Less than was authorized releases the
 * rest, where the provider captures part at all (its `partialCapture`).
 */
export type CaptureInstruction = {
  captureId: string;
  invoiceId: string;
  /** The provider's reference of the authorization (the successful attempt's). */
  paymentReference: string;
  /** The idempotency key the authorization was sent with (the attempt's id). */
  paymentKey: string;
  currency: string;
  amount: string;
  amountMinor: bigint;
};

/**
 * A capture's answer. `declined`: the provider refused it for good (the authorization lapsed or was
 * voided); `refused`: not taken (unavailable, refused request), nothing changed; `unknown`: only a
 * status request may say.
 */
export type CaptureOutcome =
  | { kind: "captured"; providerReference: string; capturedMinor: bigint }
  | { kind: "declined"; providerReference?: string; message: string }
  | { kind: "refused"; message: string }
  | { kind: "unknown"; message: string };

/** A void of an authorization; `voidId` is the idempotency key. */
export type VoidInstruction = { voidId: string; invoiceId: string; paymentReference: string; paymentKey: string };

export type VoidOutcome =
  | { kind: "voided"; providerReference: string }
  | { kind: "declined"; message: string }
  | { kind: "refused"; message: string }
  | { kind: "unknown"; message: string };

export type ProviderAdapter = {
  createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome>;
  /**
   * Provider F's `options.bypass_hpp`: the payment is sent at creation without the hosted page and
   * without a card (the provider collects the card itself). Only providers that offer it implement it.
   */
  createPaymentWithoutCard?(context: AdapterContext, instruction: Omit<PaymentInstruction, "card">): Promise<ProviderOutcome>;
  /** Only providers with a payout service implement it. */
  createPayout?(context: AdapterContext, instruction: PayoutInstruction): Promise<ProviderOutcome>;
  /** Stops a payout the provider has not completed (its attempt's idempotency key names it); payout providers only. */
  cancelPayout?(context: AdapterContext, query: { idempotencyKey: string; providerReference?: string }): Promise<CancelPayoutOutcome>;
  /** The status request: what the provider knows of an earlier payment or payout. */
  getStatus(context: AdapterContext, query: { providerReference?: string; idempotencyKey: string; direction: "payment" | "payout" }): Promise<ProviderOutcome>;
  healthCheck(context: AdapterContext): Promise<HealthResult>;
  /** Sends a refund of a processed payment (lib/refunds). */
  refund(context: AdapterContext, instruction: RefundInstruction): Promise<RefundOutcome>;
  /** What the provider knows of an earlier refund, by its id (and its reference when known). */
  getRefundStatus(context: AdapterContext, query: { refundId: string; providerReference?: string; paymentReference: string }): Promise<RefundOutcome>;
  /** Providers with `authorizeCapture`: capture an authorization, and what the provider knows of a capture. */
  capture?(context: AdapterContext, instruction: CaptureInstruction): Promise<CaptureOutcome>;
  getCaptureStatus?(context: AdapterContext, query: { captureId: string; paymentReference: string }): Promise<CaptureOutcome>;
  /** Providers with `void`: release an authorization, and what the provider knows of a void. */
  voidAuthorization?(context: AdapterContext, instruction: VoidInstruction): Promise<VoidOutcome>;
  getVoidStatus?(context: AdapterContext, query: { voidId: string; paymentReference: string }): Promise<VoidOutcome>;
  /** Saved cards (charge with a token, forget a token): providers that keep cards only. */
  tokens?: TokenAdapter;
  /** Disputes of its payments: what it says of one, the merchant's evidence sent, a dispute conceded (lib/disputes). */
  disputes?: DisputeAdapter;
};

/**
 * What a provider says about a dispute of one of its payments, mapped (its `mapping.ts`): in its
 * notification, or in the answer to a dispute status request, a submission or an acceptance.
 */
export type DisputeReport = {
  /** The provider's own id of the dispute. */
  disputeReference: string;
  /** The disputed payment: the provider's reference of it, and the idempotency key it was sent with (the attempt's id), as far as the provider says. */
  paymentReference?: string;
  paymentKey?: string;
  amountMinor: bigint;
  currency: string;
  reason: DisputeReason;
  /** The provider's own code or words for the reason, kept as sent. */
  providerReason: string;
  status: DisputeStatus;
  /** Until when the provider takes evidence. */
  evidenceDueBy: Date;
};

/** An uploaded file sent with evidence (lib/disputes): its bytes, read from the database for the one call. */
export type DisputeEvidenceFile = { id: string; filename: string; contentType: string; sha256: string; data: Buffer };

/**
 * The merchant's evidence for one dispute. `disputeId` (the service's) is the provider's
 * idempotency key: the same submission sent twice is one submission.
 */
export type DisputeEvidenceInstruction = {
  disputeId: string;
  disputeReference: string;
  paymentReference: string;
  text: {
    product_description?: string;
    customer_communication?: string;
    shipping_tracking?: string;
    refund_policy?: string;
    explanation?: string;
  };
  files: DisputeEvidenceFile[];
};

/**
 * The answer to a submission or an acceptance. `taken`: the provider has it, and says where the
 * dispute stands now; `refused`: not taken, for good (`deadline_passed`: too late; `closed`: the
 * dispute is no longer open); `failed`: not taken this time (unavailable, credentials refused),
 * nothing changed; `unknown`: no answer, only a dispute status request may say.
 */
export type DisputeActionOutcome =
  | { kind: "taken"; report: DisputeReport }
  | { kind: "refused"; code: "deadline_passed" | "closed"; message: string }
  | { kind: "failed"; message: string }
  | { kind: "unknown"; message: string };

export type DisputeStatusOutcome = { kind: "found"; report: DisputeReport } | { kind: "not_found"; message: string } | { kind: "failed"; message: string };

/** The dispute half of an adapter: every provider of the registry implements it (each notifies its disputes by callback too). */
type DisputeAdapter = {
  getDispute(context: AdapterContext, query: { disputeReference: string }): Promise<DisputeStatusOutcome>;
  submitEvidence(context: AdapterContext, instruction: DisputeEvidenceInstruction): Promise<DisputeActionOutcome>;
  accept(context: AdapterContext, query: { disputeId: string; disputeReference: string }): Promise<DisputeActionOutcome>;
};

/**
 * A card a provider keeps behind its token (saved cards, lib/payment-methods): the token, which the
 * service seals and never returns, and what may be shown of the card. Never the number or the CVC.
 */
export type SavedCard = {
  token: string;
  /** Lower case, as lib/cards/bin names brands ("visa", "mastercard"); null when the provider does not say. */
  brand: string | null;
  lastFour: string;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
};

/** A payment with a saved card: the instruction without the card, and the provider's token in its place. */
export type TokenPaymentInstruction = Omit<PaymentInstruction, "card"> & { cardToken: string };

/**
 * The saved-card half of an adapter (providers whose capabilities include card tokens: lib/providers/capabilities.ts).
 * `createPayment` saves the card when `tokenize` is set on the instruction; these charge and forget it.
 */
type TokenAdapter = {
  createPaymentWithToken(context: AdapterContext, instruction: TokenPaymentInstruction): Promise<ProviderOutcome>;
  /** The provider forgets the token; `false` when its API cannot be told (then only the service forgets it). */
  deleteToken(context: AdapterContext, token: string): Promise<{ kind: "deleted" | "unknown_token" } | { kind: "failed"; message: string }>;
};
