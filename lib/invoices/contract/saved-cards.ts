import { z } from "zod";
import { problem, type Problem } from "@/lib/problems";
import { strictObjectOf } from "./strict-object";

/**
 * Saved cards on the invoice contract: `gateway_options.cardgate.tokenize` (present, any
 * string, the empty one of the spec's examples included) asks to save the card once Pay succeeds,
 * which needs a customer reference to file it under; `data.relationships.payment_method` charges a
 * saved card at creation, without the hosted page (lib/processing/saved-card-charge.ts).
 */
export const PAYMENT_METHOD_PATH = ["data", "relationships", "payment_method"] as const;
const CUSTOMER_REFERENCE_PATH = ["data", "attributes", "customer", "reference_id"] as const;

export const paymentMethodRelationshipSchema = strictObjectOf(
  {
    data: strictObjectOf(
      {
        type: z.literal("payment-methods", { error: 'The related resource\'s type must be "payment-methods"' }),
        id: z.string().min(1).max(100).meta({ description: "The payment method's id, pm_…" }),
      },
      "member of a resource identifier",
    ),
  },
  "member of the payment_method relationship",
).meta({
  description:
    "Optional, payments only. Charges this saved card at creation, server to server, without the hosted page: the answer " +
    "carries the outcome (processed, declined, or process_pending with hpp_url when the provider asks for 3-D Secure). " +
    "Routed only to connections of the provider that holds the card, in the invoice's mode (422 payment_method_not_found, " +
    "payment_method_detached, payment_method_unusable at /data/relationships/payment_method/data/id)",
});

type Envelope = {
  data: { attributes: Record<string, unknown>; customer?: unknown; relationships?: { connection?: unknown; payment_method?: { data: { id: string } } } };
};

/** Whether the payment asks to save its card: `gateway_options.cardgate.tokenize` present, whatever string it holds. */
export function asksToTokenize(gatewayOptions: Record<string, unknown> | null | undefined): boolean {
  const cardgate = gatewayOptions?.cardgate;
  return typeof cardgate === "object" && cardgate !== null && typeof (cardgate as { tokenize?: unknown }).tokenize === "string";
}

/** The customer's reference as text (a string or an integer in the request), or undefined when none or blank. */
export function customerReferenceOf(customer: unknown): string | undefined {
  const reference = (customer as { reference_id?: unknown } | null | undefined)?.reference_id;
  if (typeof reference === "number" && Number.isInteger(reference)) return String(reference);
  return typeof reference === "string" && reference.trim() !== "" ? reference : undefined;
}

/** The customer a request names, from whichever of its three placements it sits in (spec 2.1). */
function requestCustomerOf(envelope: Envelope): unknown {
  const gateway = envelope.data.attributes.gateway_options as { customer?: unknown } | undefined;
  return envelope.data.attributes.customer ?? envelope.data.customer ?? gateway?.customer;
}

/** The payment method a request charges, if it names one. */
export function paymentMethodIdOf(envelope: { data: { relationships?: { payment_method?: { data: { id: string } } } } }): string | undefined {
  return envelope.data.relationships?.payment_method?.data.id;
}

/** The rules beyond the schema: tokenize needs a customer reference; a saved card is charged by payments only, and is not pinned. */
export function checkSavedCardRules(direction: "payment" | "payout", envelope: Envelope): Problem[] {
  const problems: Problem[] = [];
  const relationships = envelope.data.relationships;
  if (relationships?.payment_method !== undefined) {
    if (direction !== "payment")
      problems.push(
        problem("invalid", "Only a payment invoice may charge a saved card; leave data.relationships.payment_method out.", [...PAYMENT_METHOD_PATH]),
      );
    else if (relationships.connection !== undefined) {
      problems.push(
        problem("invalid", "A saved card is charged through the connections of the provider that holds it; leave data.relationships.connection out.", [
          "data",
          "relationships",
          "connection",
        ]),
      );
    }
  }
  // The spec's own examples (C in EUR, D) send tokenize as an empty string with no customer reference: they stay
  // accepted and save nothing. A tokenize with a value is an explicit ask to save the card, which needs the reference.
  const gateway = envelope.data.attributes.gateway_options as { cardgate?: { tokenize?: unknown } } | undefined;
  const explicitAsk = typeof gateway?.cardgate?.tokenize === "string" && gateway.cardgate.tokenize !== "";
  if (explicitAsk && relationships?.payment_method === undefined && customerReferenceOf(requestCustomerOf(envelope)) === undefined) {
    problems.push(
      problem("required", "gateway_options.cardgate.tokenize saves the card for a customer: send customer.reference_id, your own id of the customer.", [
        ...CUSTOMER_REFERENCE_PATH,
      ]),
    );
  }
  return problems;
}
