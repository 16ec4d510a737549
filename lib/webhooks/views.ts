import type { WebhookEventState, WebhookTargetState } from "@/lib/db/enums";

/**
 * Plain JSON the dashboard's webhook components receive (isomorphic: client components import
 * these types). None of them ever holds a signing secret.
 */

/** One endpoint as the Webhooks page shows it, with when its secrets were made. */
export type WebhookEndpointView = {
  id: string;
  url: string;
  description: string;
  enabled: boolean;
  /** The chosen event types; null for all of them. */
  eventTypes: string[] | null;
  createdAt: string;
  /** When the current signing secret was made (ISO), null when there is none. */
  secretCreatedAt: string | null;
  /** When rolled-away secrets stop signing (ISO), newest first. */
  retiringSecrets: string[];
};

/** One try: when, to which endpoint, what triggered it, the answer. */
export type WebhookTryView = {
  id: string;
  at: string;
  /** Null once the endpoint is deleted (the URL still says where the try went). */
  endpointId: string | null;
  url: string;
  trigger: "automatic" | "resend" | "test";
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  succeeded: boolean;
};

/** The event's delivery to one endpoint: its state and schedule. */
export type WebhookTargetView = {
  endpointId: string;
  url: string;
  description: string;
  state: WebhookTargetState;
  tries: number;
  nextTryAt: string | null;
};

/** One event with its deliveries per endpoint and every try (oldest first). */
export type WebhookEventView = {
  id: string;
  type: string;
  invoiceId: string | null;
  /** 1, 2, 3 … per invoice; null for a test event. */
  sequence: number | null;
  /** The invoice status the event announces (from its snapshot). */
  invoiceStatus: string | null;
  state: WebhookEventState;
  createdAt: string;
  targets: WebhookTargetView[];
  deliveries: WebhookTryView[];
};

/** A row of the event log. */
export type WebhookLogEntryView = {
  id: string;
  type: string;
  invoiceId: string | null;
  sequence: number | null;
  invoiceStatus: string | null;
  state: WebhookEventState;
  createdAt: string;
  /** How many endpoints it goes to, and how many of them have it. */
  endpoints: number;
  delivered: number;
};

/** The receiver's answer to a test event or a resend. */
export type WebhookAnswer = {
  eventId: string;
  endpointId: string;
  succeeded: boolean;
  statusCode: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
};

/**
 * An event's state from its deliveries: none (no endpoint took it) → not_sent; every one delivered
 * → delivered; any failed try (retrying, or given up) → failing; else waiting for a first try → pending.
 */
export function eventStateOf(targets: readonly { state: WebhookTargetState; tries: number }[]): WebhookEventState {
  if (targets.length === 0) return "not_sent";
  if (targets.every((target) => target.state === "delivered")) return "delivered";
  if (targets.some((target) => target.state === "failed" || (target.state === "pending" && target.tries > 0))) return "failing";
  return "pending";
}

export const EVENT_STATE_LABELS: Readonly<Record<WebhookEventState, string>> = {
  delivered: "Delivered",
  failing: "Failing",
  pending: "Pending",
  not_sent: "Not sent",
};

export const TARGET_STATE_LABELS: Readonly<Record<WebhookTargetState, string>> = {
  pending: "Waiting for the next try",
  delivered: "Delivered",
  failed: "Failed",
};
