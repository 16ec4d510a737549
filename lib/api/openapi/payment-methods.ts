import { JSON_API, type Json } from "./json-schema";

/**
 * The saved-card operations of the OpenAPI document: list, read and detach payment
 * methods. A payment method never carries its token nor the card number.
 */
const card: Json = {
  type: "object",
  properties: {
    brand: { type: ["string", "null"], description: "The card network (visa, mastercard, …); null when the provider does not say" },
    last_four: { type: "string", pattern: "^[0-9]{4}$" },
    expiry_month: { type: "integer", minimum: 1, maximum: 12 },
    expiry_year: { type: "integer" },
  },
  required: ["brand", "last_four", "expiry_month", "expiry_year"],
};

const resource: Json = {
  type: "object",
  properties: {
    id: { type: "string", description: "pm_…" },
    type: { const: "payment-methods" },
    attributes: {
      type: "object",
      properties: {
        customer_reference: { type: "string", description: "The customer.reference_id of the payment that saved it" },
        card,
        provider: { type: "string", description: "The provider that holds the card behind its token" },
        test_mode: { type: "boolean" },
        usable: { type: "boolean", description: "false once detached, or when the connection holding the token was deleted" },
        detached_at: { type: ["string", "null"], format: "date-time" },
        created: { type: "string", format: "date-time" },
        updated: { type: "string", format: "date-time" },
      },
    },
    relationships: { type: "object", description: "connection: the connection that holds the token; source_invoice: the payment that saved it" },
    links: { type: "object", properties: { self: { type: "string", format: "uri" } } },
  },
  required: ["id", "type", "attributes", "relationships", "links"],
};

export const PAYMENT_METHOD_SCHEMAS: Readonly<Record<string, Json>> = {
  PaymentMethodDocument: { type: "object", properties: { data: resource }, required: ["data"] },
  PaymentMethodList: {
    type: "object",
    properties: { data: { type: "array", items: resource }, links: { type: "object" }, meta: { type: "object" } },
    required: ["data", "links"],
  },
};

const ID: Json = { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^pm_[A-Za-z0-9_-]{1,64}$" } };
type ErrorRefs = (...codes: [string, string][]) => Json;

/** `errors`: the document's error answers (the common ones every operation lists, and these). */
export function paymentMethodPaths(errors: ErrorRefs): Json {
  return {
    "/api/commerce/payment-methods": {
      get: {
        operationId: "listPaymentMethods",
        summary: "The merchant's saved cards, newest first",
        description:
          "Cards saved by payments sent with gateway_options.cardgate.tokenize and customer.reference_id, once paid. A key lists its " +
          "own mode only. Keyset pages: links.next carries page[after]. Detached cards are listed with usable false.",
        parameters: [
          { name: "filter[customer_reference]", in: "query", schema: { type: "string", maxLength: 255 }, description: "One customer's cards" },
          { name: "page[size]", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 25 } },
          { name: "page[after]", in: "query", schema: { type: "string" }, description: "The cursor of links.next" },
        ],
        responses: {
          "200": { description: "The payment methods", content: { [JSON_API]: { schema: { $ref: "#/components/schemas/PaymentMethodList" } } } },
          ...errors(["400", "QueryRefused"]),
        },
      },
    },
    "/api/commerce/payment-methods/{id}": {
      get: {
        operationId: "getPaymentMethod",
        summary: "Read one saved card",
        description: "Another merchant's, or the other mode's than the key's, answers 404 like an unknown id.",
        parameters: [ID],
        responses: {
          "200": { description: "The payment method", content: { [JSON_API]: { schema: { $ref: "#/components/schemas/PaymentMethodDocument" } } } },
          ...errors(["400", "QueryRefused"], ["404", "NotFound"]),
        },
      },
      delete: {
        operationId: "detachPaymentMethod",
        summary: "Detach a saved card",
        description:
          "204. The provider is told to forget its token where its API allows; the card is never charged again: a payment " +
          "naming it in data.relationships.payment_method answers 422 payment_method_detached. A second DELETE answers 204 too.",
        parameters: [ID],
        responses: { "204": { description: "Detached" }, ...errors(["400", "QueryRefused"], ["403", "Forbidden"], ["404", "NotFound"]) },
      },
    },
  };
}
