/**
 * The event types an endpoint may choose (isomorphic: the endpoint form lists them). Each is
 * written by one module: `invoice.status_changed` by lib/invoices/events.ts, `payout.canceled` by
 * lib/processing/cancel-payout.ts, `invoice.authorized`, `invoice.captured` and `invoice.voided` by lib/processing/authorization.ts, `refund.*` by lib/refunds/events.ts, `connection.health_changed` by lib/analytics/connection-health.ts, `payment_method.*` by lib/payment-methods/store.ts, `dispute.*` by lib/disputes/events.ts, `alert.*` by lib/alerts/deliver.ts, `risk.blocked` by lib/processing/risk-gate.ts (an integration test holds
 * this list to those). `webhook.test` is not chosen: "Send test event" sends it to one endpoint.
 */
export const WEBHOOK_EVENT_TYPES = [
  "invoice.status_changed",
  "payout.canceled",
  "refund.created",
  "refund.succeeded",
  "refund.failed",
  "connection.health_changed",
  "invoice.authorized",
  "invoice.captured",
  "invoice.voided",
  "payment_method.created",
  "payment_method.detached",
  "dispute.created",
  "dispute.updated",
  "dispute.closed",
  "alert.triggered",
  "alert.resolved",
  "risk.blocked",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_TYPE_LABELS: Readonly<Record<WebhookEventType, string>> = {
  "invoice.status_changed": "Every status change of a payment or payout invoice",
  "payout.canceled": "A payout canceled (wholly or partly)",
  "refund.created": "A refund stored and on its way to the provider",
  "refund.succeeded": "A refund the provider confirmed",
  "refund.failed": "A refund the provider refused",
  "connection.health_changed": "A connection became healthy, degraded or failing",
  "invoice.authorized": "A payment authorized (flow authorize): money reserved until capture_before",
  "invoice.captured": "An authorized payment captured, in full or in part",
  "invoice.voided": "An authorization voided, by you or because it lapsed: nothing taken",
  "payment_method.created": "A customer's card saved by a payment (tokenize)",
  "payment_method.detached": "A saved card detached (removed)",
  "dispute.created": "A customer disputed a payment: the provider opened a dispute",
  "dispute.updated": "A dispute moved on (evidence sent, under review)",
  "dispute.closed": "A dispute decided: won, lost or accepted",
  "alert.triggered": "An alert fired: a rule of yours found something wrong (connection health, success rate, failing deliveries, disputes, rolled keys)",
  "alert.resolved": "An alert's condition cleared",
  "risk.blocked": "A Pay refused by a risk rule (blocklist or velocity limit) before any provider saw it",
};

/** The test event of the Webhooks page: a sample invoice, sent to one endpoint on request. */
export const TEST_EVENT_TYPE = "webhook.test";

/** Whether an endpoint that chose `eventTypes` (null: all) is sent an event of `type`. */
export function subscribesTo(eventTypes: readonly string[] | null, type: string): boolean {
  return eventTypes === null || eventTypes.includes(type);
}
