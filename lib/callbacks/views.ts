import type { CallbackOutcome } from "@/lib/db/enums";

/**
 * A provider callback as the invoice page shows it (plain JSON, isomorphic): when it came, from
 * which provider, what the service did with it and why, and the status it reported. Headers and
 * body stay on the server.
 */
export type InvoiceCallbackView = {
  id: string;
  /** ISO 8601. */
  receivedAt: string;
  provider: string;
  /** The provider's name from the registry (the slug when it is no longer registered). */
  providerName: string;
  outcome: CallbackOutcome;
  reason: string | null;
  /** The attempt's or refund's status the callback reported ("succeeded", "declined", …), null when it was not read (rejected). */
  reportedStatus: string | null;
  /** The decline or failure it reported, if any. */
  reportedResolution: string | null;
  notificationId: string | null;
  attemptId: string | null;
  /** The refund it was about; null for a notification about an attempt (a payment or payout). */
  refundId: string | null;
};

export const CALLBACK_OUTCOME_LABELS: Readonly<Record<CallbackOutcome, string>> = {
  applied: "Applied",
  ignored: "Stored, ignored (ignore_callback)",
  superseded: "Stored, changed nothing",
  rejected: "Rejected",
};
