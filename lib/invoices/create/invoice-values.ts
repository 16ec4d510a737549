import { resolveCustomer, type CustomerPlacement, type ResolveError } from "@/lib/customers";
import { getKind, type InvoiceDirection } from "@/lib/providers";
import { parseAmount } from "../contract/amount";
import { maskCardNumber } from "../contract/card";
import type { InvoiceIssue } from "../contract/issues";
import type { Route } from "./routing";
import type { InvoiceEnvelope } from "../contract/schemas";
import type { NewInvoice } from "./store";

export type InvoiceValuesInput = {
  id: string;
  merchantId: string;
  direction: InvoiceDirection;
  /** The request's `data` member as parsed from JSON, before validation touched it. */
  data: unknown;
  envelope: InvoiceEnvelope<InvoiceDirection>;
  route: Route;
  hash: string;
  requestId?: string;
};

function customerIssues(errors: readonly ResolveError[]): InvoiceIssue[] {
  return errors.map((error) => ({
    path: error.pointer.split("/").slice(1),
    pointer: error.pointer,
    code: error.code === "customer_conflict" ? "customer_conflict" : "invalid_type",
    message: error.detail,
  }));
}

/** Spec 2.1: the customer may sit in one of three spots; it is stored as sent, whichever it was. */
function customerAsSent(envelope: InvoiceEnvelope<InvoiceDirection>, placement: CustomerPlacement | null) {
  const { data } = envelope;
  const attributes: { customer?: unknown; gateway_options?: { customer?: unknown } } = data.attributes;
  const sent =
    placement === "data" ? data.customer : placement === "gateway_options" ? attributes.gateway_options?.customer : attributes.customer;
  return (sent ?? null) as Record<string, unknown> | null;
}

/**
 * The row to store for a validated request routed to `route`: the customer as sent and as the
 * provider receives it (request, then the connection's constants, then the kind's defaults; spec
 * 2.3, 2.5, 2.6), the amount as sent and in exact minor units, the card only as a mask.
 */
export function invoiceValues(input: InvoiceValuesInput): { ok: true; values: NewInvoice } | { ok: false; issues: InvoiceIssue[] } {
  const { envelope, route } = input;
  const attributes = envelope.data.attributes;
  const kind = getKind(route.provider, route.kind);
  const resolved = resolveCustomer({
    data: input.data,
    constants: route.constants,
    constantSpecs: kind?.constants ?? [],
    defaults: kind?.defaults,
  });
  if (!resolved.ok) return { ok: false, issues: customerIssues(resolved.errors) };
  // Validation already applied the amount rules; parsing again yields the exact text and minor units.
  const amount = parseAmount(attributes.amount, attributes.currency);
  if (!amount.ok) {
    return { ok: false, issues: [{ path: ["data", "attributes", "amount"], pointer: "/data/attributes/amount", code: "invalid_amount", message: amount.message }] };
  }
  const payment = "flow" in attributes ? attributes : undefined;
  const card = "fields" in attributes ? attributes.fields.card_number : undefined;
  return {
    ok: true,
    values: {
      id: input.id,
      merchantId: input.merchantId,
      direction: input.direction,
      referenceId: attributes.reference_id,
      requestHash: input.hash,
      connectionId: route.connectionId,
      service: attributes.service,
      currency: attributes.currency,
      amount: amount.text,
      amountIsNumber: typeof attributes.amount === "number",
      amountMinor: amount.minor,
      testMode: attributes.test_mode === true,
      flow: payment?.flow ?? null,
      options: attributes.options ?? {},
      customer: customerAsSent(envelope, resolved.placement),
      resolvedCustomer: resolved.customer,
      gatewayOptions: payment?.gateway_options ?? null,
      serviceFields: payment?.service_fields ?? null,
      cardNumberMasked: card === undefined ? null : maskCardNumber(card),
      requestId: input.requestId ?? null,
    },
  };
}
