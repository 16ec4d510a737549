/**
 * The value sets stored in the invoices' text columns, declared here so the schema needs nothing
 * from lib/invoices; the state machine (lib/invoices/state-machine.ts) re-exports them with the
 * rules that move between them.
 */

/** REFERENCE "Statuses": payment and payout invoices share all but the refund/cancel states. */
export const INVOICE_STATUSES = [
  "created",
  "processing",
  "processed",
  "partially_processed",
  "process_failed",
  "process_pending",
  "process_error",
  "expired",
  "terminated",
  "refunding",
  "refunded",
  "partially_refunded",
  "canceling",
  "canceled",
  "partially_canceled",
  // Authorize now, capture later: payments of flow "authorize" only.
  "authorized",
  "capturing",
  "voiding",
  "voided",
] as const;

export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** REFERENCE "Statuses": why an invoice ended where it did. */
/**
 * Statuses the expiry check may still end (lib/invoices/lifecycle.ts owns the whole rule); any other
 * status is paid, final or being paid. Here because the partial index of the expiry sweep
 * (`invoices_expiry_idx`, lib/db/schema.ts) is built from the same list.
 */
export const EXPIRABLE_STATUSES = ["created", "process_failed", "process_pending"] as const satisfies readonly InvoiceStatus[];

export const RESOLUTIONS = [
  "ok",
  "issuer_decline",
  "insufficient_funds",
  "invalid_cvv",
  "auth_3ds_failed",
  "expired",
  "provider_unavailable",
  "provider_auth_error",
  "unable_to_reconcile",
  "mode_mismatch",
  "general_error",
  /** A payout the merchant canceled before any of it was paid: not a decline, nothing about the provider. */
  "canceled",
  /** An authorization the merchant voided: nothing was taken. */
  "voided",
  /** An authorization not captured before its `capture_before`, voided by the sweep: nothing was taken. */
  "authorization_expired",
] as const;

export type Resolution = (typeof RESOLUTIONS)[number];

/**
 * Why an invoice went to its connection: `pinned` (the request named it), `routing_order` (the
 * first enabled connection of the merchant's routing order for the service and mode), `cascaded`
 * (a later one of that order, after a soft failure of an earlier one; written by processing).
 */
export const ROUTING_REASONS = ["pinned", "routing_order", "cascaded"] as const;

export type RoutingReason = (typeof ROUTING_REASONS)[number];

/**
 * Where one attempt stands. `in_flight` while the provider call runs; the others mirror
 * the adapter's outcome kinds. Only `pending` and `unknown` may still change (status request, 3-D
 * Secure result).
 */
export const ATTEMPT_STATUSES = ["in_flight", "succeeded", "pending", "declined", "soft_failed", "unknown"] as const;

export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** Attempt statuses that are settled: the overview's rollups and a connection's health count these, an open attempt nothing yet. */
export const SETTLED_ATTEMPT_STATUSES = ["succeeded", "declined", "soft_failed"] as const satisfies readonly AttemptStatus[];

/**
 * An attempt's 3-D Secure step, as the service saw it (lib/invoices/three-ds.ts): `requested` when a
 * routing rule asked the provider for it, `required` while the provider waits for the customer's
 * challenge, then `passed` or `failed`; `frictionless` when the provider, asked, approved without a
 * challenge. Null: nobody asked and the provider wanted no 3-D Secure step.
 */
export type ThreeDsResult = "requested" | "required" | "passed" | "failed" | "frictionless";

export const PAYOUT_PART_STATUSES = ["pending", "succeeded", "failed"] as const;

export type PayoutPartStatus = (typeof PAYOUT_PART_STATUSES)[number];

/** A refund's life (lib/refunds): stored, then the provider's answer; `created` and `pending` are open. */
export const REFUND_STATUSES = ["created", "pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export const OPEN_REFUND_STATUSES = ["created", "pending"] as const satisfies readonly RefundStatus[];

/**
 * A dispute's life (lib/disputes): the provider opens it `needs_response`; the merchant's evidence
 * sent, `under_review`; the provider decides `won` or `lost` (also `lost` when the deadline passes
 * unanswered); conceding makes it `accepted`. The first two are open.
 */
export const DISPUTE_STATUSES = ["needs_response", "under_review", "won", "lost", "accepted"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const OPEN_DISPUTE_STATUSES = ["needs_response", "under_review"] as const satisfies readonly DisputeStatus[];
/** Closed with the money gone back to the customer: counted against the payment's net. */
export const DISPUTE_LOSS_STATUSES = ["lost", "accepted"] as const satisfies readonly DisputeStatus[];

/** Why the customer disputed, in the service's words; each provider's own codes map to one (its mapping.ts). */
export const DISPUTE_REASONS = ["fraudulent", "not_received", "not_as_described", "duplicate", "credit_not_processed", "other"] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/**
 * What the service did with a provider callback: `applied` (it moved the attempt and the
 * invoice), `ignored` (verified and stored, but the connection says ignore_callback), `superseded`
 * (verified, for an attempt the invoice has already left, or that is already final), `rejected`
 * (not verified, replayed or malformed: `reason` says which).
 */
export type CallbackOutcome = "applied" | "ignored" | "superseded" | "rejected";

/** One event's delivery to one endpoint: waiting (first or next try), delivered, or given up after 24 hours. */
export type WebhookTargetState = "pending" | "delivered" | "failed";
/** An event as the log shows it: every endpoint delivered, some try failed (retrying or given up), none tried yet, or no endpoint took it. */
export const WEBHOOK_EVENT_STATES = ["delivered", "failing", "pending", "not_sent"] as const;
export type WebhookEventState = (typeof WEBHOOK_EVENT_STATES)[number];

/** A connection's health from its recent attempts (lib/analytics/connection-health.ts says the rule). */
export const CONNECTION_HEALTHS = ["healthy", "degraded", "failing"] as const;
export type ConnectionHealth = (typeof CONNECTION_HEALTHS)[number];

/**
 * A payment's `flow`: `charge` takes the money at Pay; `authorize` reserves it at Pay
 * (status `authorized`) and takes it on capture, or releases it on void or when the hold lapses.
 */
export const INVOICE_FLOWS = ["charge", "authorize"] as const;

/** The alert rules (lib/alerts/rules.ts): what each watches is described there. */
export const ALERT_RULE_KINDS = ["connection_health", "success_rate", "webhook_failures", "dispute_opened", "dispute_deadline", "api_key_after_roll"] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];
