import { resolveCustomer, type CustomerPlacement, type ResolvedField } from "@/lib/customers";
import type { CustomerSources } from "@/lib/db/schema";
import { fail, ok, problem, type Problem, type Result } from "@/lib/problems";
import { getKind, type InvoiceDirection } from "@/lib/providers";
import { parseAmount } from "@/lib/money";
import { maskCardNumber, cardLastFour } from "../../cards/card-number";
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

/** The invoice API publishes a closed set of codes: a customer that is not an object is a wrong type there. */
function customerProblems(problems: readonly Problem[]): Problem[] {
  return problems.map((entry) => (entry.code === "customer_invalid" ? { ...entry, code: "invalid_type" } : entry));
}

/** Spec 2.1: the customer may sit in one of three spots; it is stored as sent, whichever it was. */
function customerAsSent(envelope: InvoiceEnvelope<InvoiceDirection>, placement: CustomerPlacement | null) {
  const { data } = envelope;
  const attributes: { customer?: unknown; gateway_options?: { customer?: unknown } } = data.attributes;
  const sent = placement === "data" ? data.customer : placement === "gateway_options" ? attributes.gateway_options?.customer : attributes.customer;
  return (sent ?? null) as Record<string, unknown> | null;
}

/** Recorded as resolveCustomer decided it, so the invoice page and the API never have to guess later. */
function sourcesOf(fields: readonly ResolvedField[]): CustomerSources {
  // fromEntries defines own properties, so a path such as "customer.__proto__" stays plain data.
  return Object.fromEntries(fields.map(({ path, source, constant }) => [path, constant === undefined ? { source } : { source, constant }]));
}

/**
 * The row to store for a validated request routed to `route`: the customer as sent and as the
 * provider receives it (request, then the connection's constants, then the kind's defaults; spec
 * 2.3, 2.5, 2.6), the amount as sent and in exact minor units, the card only as a mask.
 */
export function invoiceValues(input: InvoiceValuesInput): Result<NewInvoice> {
  const { envelope, route } = input;
  const attributes = envelope.data.attributes;
  const kind = getKind(route.provider, route.kind);
  const resolved = resolveCustomer({
    data: input.data,
    constants: route.constants,
    constantSpecs: kind?.constants ?? [],
    defaults: kind?.defaults,
  });
  if (!resolved.ok) return fail(customerProblems(resolved.problems));
  // Validation already applied the amount rules; parsing again yields the exact text and minor units.
  const amount = parseAmount(attributes.amount, attributes.currency);
  if (!amount.ok) {
    return fail([problem("invalid_amount", amount.message, ["data", "attributes", "amount"])]);
  }
  const payment = "flow" in attributes ? attributes : undefined;
  const card = "fields" in attributes ? attributes.fields.card_number : undefined;
  return ok({
    id: input.id,
    merchantId: input.merchantId,
    direction: input.direction,
    referenceId: attributes.reference_id,
    requestHash: input.hash,
    connectionId: route.connectionId,
    routingReason: route.reason,
    routingDetail: route.detail,
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
    resolvedCustomerSources: sourcesOf(resolved.fields),
    gatewayOptions: payment?.gateway_options ?? null,
    serviceFields: payment?.service_fields ?? null,
    cardNumberMasked: card === undefined ? null : maskCardNumber(card),
    cardLastFour: card === undefined ? null : cardLastFour(card),
    returnUrl: payment?.return_url ?? null,
    description: payment?.description ?? null,
    requestId: input.requestId ?? null,
  });
}
