import { toInvoiceResource } from "@/lib/api/invoice-resource";
import { toRefundResource } from "@/lib/api/refund-resource";
import { toDisputeResource } from "@/lib/api/dispute-resource";
import { disputeFromSnapshot } from "@/lib/disputes/store";
import { paymentMethodFromSnapshot, toPaymentMethodResource } from "@/lib/api/payment-method-resource";
import { refundFromSnapshot } from "@/lib/refunds/events";
import { publicBaseUrl } from "@/lib/config";
import type { InvoiceRow } from "@/lib/invoices/store";
import { invoiceFromSnapshot, snapshotInvoice } from "@/lib/invoices/events";
import { TEST_EVENT_TYPE } from "../invoices/event-types";

/**
 * The delivered document (REFERENCE "Webhooks to the merchant"): the invoice resource exactly as
 * `GET /api/commerce/{direction}-invoices/{id}` answers it (`data`, with its connection
 * relationship and links on APP_URL), plus `meta.event_id`, `meta.event_type` and, for an event
 * about an invoice, `meta.sequence` (1, 2, 3 … per invoice: receivers order by it). Rendered from the
 * event's snapshot, so a late or repeated delivery still shows the status the event is about.
 */

export type EventForBody = {
  id: string;
  type: string;
  sequence?: number | null;
  invoice: Record<string, unknown> | null;
  refund?: Record<string, unknown> | null;
  /** connection.* events (connection.health_changed): the connection's snapshot (lib/analytics/connection-health.ts), no invoice. */
  connection?: Record<string, unknown> | null;
  /** payment_method.* events, and an invoice.status_changed of an invoice that saved or charged a card: the payment method (no token). */
  paymentMethod?: Record<string, unknown> | null;
  /** dispute.* events: the dispute as it was (lib/disputes/events.ts), its invoice beside it. */
  dispute?: Record<string, unknown> | null;
  /** alert.* events: the alert as it fired or resolved (lib/alerts/deliver.ts), no invoice. */
  alert?: Record<string, unknown> | null;
  /** risk.blocked events: the rule that refused the Pay and what it would have taken (lib/processing/risk-gate.ts), as `meta.risk`. */
  risk?: Record<string, unknown> | null;
};

/**
 * refund.* events carry the refund as `data` and its payment invoice in `included` (JSON:API
 * compound document), both as they were when the event happened; dispute.* events the dispute so.
 */
export function renderEventBody(event: EventForBody): string {
  if (event.connection) return renderConnectionEventBody(event, event.connection);
  if (event.alert) return renderAlertEventBody(event, event.alert);
  if (event.paymentMethod && event.type.startsWith("payment_method.")) return renderPaymentMethodEventBody(event, event.paymentMethod);
  if (!event.invoice) throw new Error(`webhook event ${event.id} has no invoice snapshot`);
  const baseUrl = publicBaseUrl();
  const invoice = toInvoiceResource(invoiceFromSnapshot(event.invoice), { baseUrl });
  const meta: Record<string, unknown> = { event_id: event.id, event_type: event.type };
  if (typeof event.sequence === "number") meta.sequence = event.sequence;
  if (event.type === TEST_EVENT_TYPE) meta.sample = true;
  if (event.risk) meta.risk = event.risk;
  if (event.refund) return JSON.stringify({ data: toRefundResource(refundFromSnapshot(event.refund), baseUrl), included: [invoice], meta });
  if (event.dispute) return JSON.stringify({ data: toDisputeResource(disputeFromSnapshot(event.dispute), baseUrl), included: [invoice], meta });
  // The payment method the invoice saved (or charged) rides along as JSON:API `included`.
  if (event.paymentMethod)
    return JSON.stringify({ data: invoice, included: [toPaymentMethodResource(paymentMethodFromSnapshot(event.paymentMethod), baseUrl)], meta });
  return JSON.stringify({ data: invoice, meta });
}

/**
 * The invoice of a "Send test event": clearly a sample (id and reference say so, `meta.sample` is
 * true), in the shape of a real processed test-mode payment, so a receiver can be built against it.
 */
export function sampleInvoiceSnapshot(merchantId: string, at = new Date()): Record<string, unknown> {
  const row: InvoiceRow = {
    id: "cpi_sample_webhook_test_event",
    merchantId,
    direction: "payment",
    referenceId: "sample-webhook-test",
    requestHash: "sample",
    connectionId: null,
    routingReason: null,
    routingDetail: null,
    processedAmountMinor: 10050n,
    refundedAmountMinor: 0n,
    disputedAmountMinor: 0n,
    authorizedAmountMinor: null,
    captureBefore: null,
    captureAmountMinor: null,
    authorizationRequestKey: null,
    attemptsCount: 1,
    eventSequence: 0,
    returnUrl: null,
    description: null,
    status: "processed",
    resolution: "ok",
    service: "payment_card_eur_hpp",
    currency: "EUR",
    amount: "100.50",
    amountIsNumber: false,
    amountMinor: 10050n,
    testMode: true,
    flow: null,
    options: {},
    customer: null,
    resolvedCustomer: {},
    resolvedCustomerSources: null,
    cardBrand: null,
    cardCountry: null,
    gatewayOptions: null,
    serviceFields: null,
    cardNumberMasked: null,
    cardLastFour: null,
    requestId: null,
    paymentMethodId: null,
    expiresAt: new Date(at.getTime() + 30 * 60_000),
    createdAt: at,
    updatedAt: at,
  };
  return snapshotInvoice(row);
}

/** A refund of the sample invoice, for the docs' refund.succeeded example. */
export function sampleRefundSnapshot(at = new Date()): Record<string, unknown> {
  return {
    id: "rf_sample_refund_example",
    merchantId: "mer_example",
    invoiceId: "cpi_sample_webhook_test_event",
    connectionId: "conn_sample_connection",
    referenceId: "refund-1001",
    requestHash: "sample",
    amount: "30.00",
    amountMinor: "3000",
    currency: "EUR",
    reason: "One item returned",
    testMode: true,
    status: "succeeded",
    resolution: "ok",
    outcomeUnknown: false,
    providerReference: "rfB_5f1c2a9e7d3b4c60",
    message: null,
    createdBy: null,
    requestId: null,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    settledAt: at.toISOString(),
  };
}

/**
 * connection.* events: the connection as `data` (type `connection`, no credentials), with its
 * health before and after and the latest error, plus `meta.event_id` and `meta.event_type`.
 */
function renderConnectionEventBody(event: EventForBody, connection: Record<string, unknown>): string {
  const id = String(connection.id);
  return JSON.stringify({
    data: {
      type: "connection",
      id,
      attributes: {
        provider: connection.provider,
        kind: connection.kind,
        label: connection.label,
        mode: connection.mode,
        enabled: connection.enabled,
        currency: connection.currency ?? null,
        health: connection.health,
        previous_health: connection.previousHealth,
        health_changed_at: connection.healthChangedAt ?? null,
        recent_outcomes: connection.recentOutcomes ?? "",
        last_error: connection.lastErrorAt
          ? { at: connection.lastErrorAt, resolution: connection.lastErrorResolution ?? null, message: connection.lastErrorMessage ?? null }
          : null,
      },
      links: { self: `${publicBaseUrl()}/connections/${id}` },
    },
    meta: { event_id: event.id, event_type: event.type },
  });
}

/**
 * payment_method.* events: the payment method as `data` (never its token), and for
 * payment_method.created the invoice whose payment saved it in `included`.
 */
function renderPaymentMethodEventBody(event: EventForBody, paymentMethod: Record<string, unknown>): string {
  const baseUrl = publicBaseUrl();
  const data = toPaymentMethodResource(paymentMethodFromSnapshot(paymentMethod), baseUrl);
  const meta = { event_id: event.id, event_type: event.type };
  if (!event.invoice) return JSON.stringify({ data, meta });
  return JSON.stringify({ data, included: [toInvoiceResource(invoiceFromSnapshot(event.invoice), { baseUrl })], meta });
}

/**
 * alert.* events: the alert as `data` (type `alert`): its rule, subject, title and detail, when it
 * opened and, for alert.resolved, when and why it resolved; a link to the Alerts page.
 */
function renderAlertEventBody(event: EventForBody, alert: Record<string, unknown>): string {
  const id = String(alert.id);
  return JSON.stringify({
    data: {
      type: "alert",
      id,
      attributes: {
        rule: alert.rule,
        subject: alert.subject,
        mode: alert.mode ?? null,
        state: alert.resolvedAt ? "resolved" : "open",
        title: alert.title,
        detail: alert.detail,
        opened_at: alert.openedAt,
        resolved_at: alert.resolvedAt ?? null,
        resolved_detail: alert.resolvedDetail ?? null,
      },
      links: { self: `${publicBaseUrl()}/alerts#${id}` },
    },
    meta: { event_id: event.id, event_type: event.type },
  });
}
