import type { WebhookDeliveryState } from "@/lib/db/enums";

/**
 * Plain JSON the dashboard's webhook components receive (isomorphic: client components import
 * these types). None of them ever holds a signing secret or a delivered body.
 */

/** Settings: the URL and when the secrets were made. */
export type WebhookSettingsView = {
  url: string | null;
  /** When the current signing secret was made (ISO), null when there is none yet. */
  secretCreatedAt: string | null;
  /** When rotated-away secrets stop signing (ISO), newest first. */
  retiringSecrets: string[];
};

/** One try as the invoice page shows it. */
export type WebhookTryView = {
  id: string;
  at: string;
  trigger: "automatic" | "resend" | "test";
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  succeeded: boolean;
};

/** One event of an invoice with its tries (oldest first). */
export type WebhookEventView = {
  id: string;
  type: string;
  /** The invoice status the event announces (from its snapshot). */
  invoiceStatus: string | null;
  state: WebhookDeliveryState;
  tries: number;
  nextTryAt: string | null;
  createdAt: string;
  deliveries: WebhookTryView[];
};

/** The receiver's answer to a test event or a resend. */
export type WebhookAnswer = {
  eventId: string;
  succeeded: boolean;
  statusCode: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
};
