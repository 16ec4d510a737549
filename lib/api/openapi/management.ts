/**
 * The management API (connections, routing orders, the provider registry) in the same OpenAPI
 * document as the invoice API, so a client, the API reference page and the test suites' response
 * validator read one description of every route under /api. Its schemas are generated from the
 * zod schemas of lib/api/management-schemas.ts; per-provider credential fields are described by
 * GET /api/providers (they vary by provider and kind, and are checked by the server against that
 * registry).
 */
import {
  connectionCreateRequestSchema,
  connectionDocumentSchema,
  connectionEditRequestSchema,
  connectionListSchema,
  connectionResourceSchema,
  providerListSchema,
  providerResourceSchema,
  routingOrderDocumentSchema,
  routingOrderListSchema,
  routingOrderRequestSchema,
  routingOrderResourceSchema,
  routingSettingsDocumentSchema,
  routingSettingsRequestSchema,
  routingSimulationDocumentSchema,
  routingSimulationRequestSchema,
} from "@/lib/api/management-schemas";
import { MODES } from "@/lib/providers";
import { JSON_API, REQUEST_TYPES, ref, responseRef, toSchema, type Json } from "./json-schema";

/** The components the management paths refer to, by name. */
export function managementSchemas(): Record<string, Json> {
  return {
    ConnectionResource: toSchema(connectionResourceSchema),
    ConnectionDocument: toSchema(connectionDocumentSchema),
    ConnectionList: toSchema(connectionListSchema),
    ConnectionCreateRequest: toSchema(connectionCreateRequestSchema),
    ConnectionEditRequest: toSchema(connectionEditRequestSchema),
    RoutingOrderResource: toSchema(routingOrderResourceSchema),
    RoutingOrderDocument: toSchema(routingOrderDocumentSchema),
    RoutingOrderList: toSchema(routingOrderListSchema),
    RoutingOrderRequest: toSchema(routingOrderRequestSchema),
    RoutingSimulationRequest: toSchema(routingSimulationRequestSchema),
    RoutingSimulationDocument: toSchema(routingSimulationDocumentSchema),
    RoutingSettingsRequest: toSchema(routingSettingsRequestSchema),
    RoutingSettingsDocument: toSchema(routingSettingsDocumentSchema),
    ProviderResource: toSchema(providerResourceSchema),
    ProviderList: toSchema(providerListSchema),
  };
}

const mode = { type: "string", enum: [...MODES] };

const document = (description: string, schema: string, headers?: Json): Json => ({
  description,
  content: { [JSON_API]: { schema: ref(schema) } },
  ...(headers ? { headers } : {}),
});

const requestBody = (schema: string): Json => ({
  required: true,
  content: Object.fromEntries(REQUEST_TYPES.map((type) => [type, { schema: ref(schema) }])),
});

const LOCATION = { Location: { description: "The new resource's URL (absolute)", required: true, schema: { type: "string", format: "uri" } } };

const errors = (...entries: [string, string][]): Json => Object.fromEntries(entries.map(([status, name]) => [status, responseRef(name)]));

/** Every keyed operation may answer these. */
const KEYED: [string, string][] = [
  ["400", "QueryRefused"],
  ["401", "Unauthorized"],
  ["406", "NotAcceptable"],
  ["415", "UnsupportedMediaType"],
  ["429", "TooManyRequests"],
  ["500", "InternalError"],
];
const WITH_BODY: [string, string][] = [
  ["400", "BadRequest"],
  ["413", "PayloadTooLarge"],
  ["422", "ManagementUnprocessable"],
];

const idParameter = (description: string): Json => ({ name: "id", in: "path", required: true, description, schema: { type: "string" } });
const filter = (name: string, description: string, schema: Json): Json => ({ name, in: "query", required: false, description, schema });

export function managementPaths(): Json {
  return {
    "/api/connections": {
      get: {
        operationId: "listConnections",
        summary: "The merchant's connections",
        parameters: [
          filter("filter[provider]", "Only this provider's connections", { type: "string" }),
          filter("filter[mode]", "test or live (anything else answers 400)", mode),
          filter("filter[state]", "enabled or disabled (anything else answers 400)", { type: "string", enum: ["enabled", "disabled"] }),
        ],
        responses: { "200": document("The connections", "ConnectionList"), ...errors(...KEYED) },
      },
      post: {
        operationId: "createConnection",
        summary: "Connect a provider account",
        requestBody: requestBody("ConnectionCreateRequest"),
        responses: { "201": document("Created", "ConnectionDocument", LOCATION), ...errors(...KEYED, ...WITH_BODY, ["403", "Forbidden"]) },
      },
    },
    "/api/connections/{id}": {
      parameters: [idParameter("The connection's id, conn_…")],
      get: {
        operationId: "getConnection",
        summary: "One connection, secrets masked",
        responses: { "200": document("The connection", "ConnectionDocument"), ...errors(...KEYED, ["404", "ResourceNotFound"]) },
      },
      patch: {
        operationId: "editConnection",
        summary: "Change a connection; a secret left out keeps its value",
        requestBody: requestBody("ConnectionEditRequest"),
        responses: {
          "200": document("The connection after the change", "ConnectionDocument"),
          ...errors(...KEYED, ...WITH_BODY, ["403", "ReadOnlyKey"], ["404", "ResourceNotFound"]),
        },
      },
      delete: {
        operationId: "deleteConnection",
        summary: "Remove a connection",
        responses: { "204": { description: "Deleted" }, ...errors(...KEYED, ["403", "ReadOnlyKey"], ["404", "ResourceNotFound"]) },
      },
    },
    "/api/routing": {
      get: {
        operationId: "listRoutingOrders",
        summary: "Every service × mode the merchant has a connection for, with its routing order",
        responses: { "200": document("The routing orders", "RoutingOrderList"), ...errors(...KEYED) },
      },
    },
    "/api/routing/simulate": {
      post: {
        operationId: "simulateRouting",
        summary: "What routing would do with an invoice of these attributes: the rule that matches, the split's branch, the order and why; creates nothing",
        description:
          "The same decision invoice creation makes, over the saved rules (or the draft rules sent). Without card_bin a payment's " +
          "card is not known yet, as before Pay: rules on the card are passed over and named in waiting_for_card.",
        requestBody: requestBody("RoutingSimulationRequest"),
        responses: { "200": document("The routing decision", "RoutingSimulationDocument"), ...errors(...KEYED, ...WITH_BODY) },
      },
    },
    "/api/routing/settings": {
      get: {
        operationId: "getRoutingSettings",
        summary: "How success-rate ordering counts: the window, the minimum sample and the exploration share",
        responses: { "200": document("The settings", "RoutingSettingsDocument"), ...errors(...KEYED, ["404", "ResourceNotFound"]) },
      },
      patch: {
        operationId: "updateRoutingSettings",
        summary: "Change how success-rate ordering counts (all three settings); invoices created from now on use them",
        description:
          "A rule's cascade (or a split branch's) with order_by success_rate is ordered by each connection's success rate for the " +
          "service over the last window_hours; a connection with fewer than min_sample counted attempts keeps its listed place; " +
          "exploration_percent of invoices try another connection first. Counted: successes, and failures of the provider " +
          "(unavailable, authentication, unknown outcomes); card and customer declines are not.",
        requestBody: requestBody("RoutingSettingsRequest"),
        responses: {
          "200": document("The settings after the change", "RoutingSettingsDocument"),
          "409": { description: "data.id is not routing-settings (code id_mismatch)", content: { [JSON_API]: { schema: ref("ErrorDocument") } } },
          ...errors(...KEYED, ...WITH_BODY, ["403", "ReadOnlyKey"], ["404", "ResourceNotFound"]),
        },
      },
    },
    "/api/routing/{id}": {
      parameters: [idParameter("service:mode, e.g. payment_card_eur_hpp:test (the colon may be percent-encoded)")],
      get: {
        operationId: "getRoutingOrder",
        summary: "One routing order",
        responses: { "200": document("The routing order", "RoutingOrderDocument"), ...errors(...KEYED, ["404", "ResourceNotFound"]) },
      },
      patch: {
        operationId: "reorderRouting",
        summary: "Save the routing: connection_ids (the default rule, first to last) and/or rules (the rules before it); each save is a version",
        description:
          "A rule is refused (422, pointer at the rule) when its outcome, or a branch of its split, has no enabled connection " +
          "that offers the service, when a split's shares do not add up to 100, or when an amount does not fit the currency.",
        requestBody: requestBody("RoutingOrderRequest"),
        responses: {
          "200": document("The routing order after the change", "RoutingOrderDocument"),
          "409": { description: "data.id is not the routing order of the URL (code id_mismatch)", content: { [JSON_API]: { schema: ref("ErrorDocument") } } },
          ...errors(...KEYED, ...WITH_BODY, ["403", "ReadOnlyKey"], ["404", "ResourceNotFound"]),
        },
      },
    },
    "/api/providers": {
      get: {
        operationId: "listProviders",
        summary: "The provider registry: kinds, credential fields, constants and services (public, no secrets)",
        security: [],
        responses: {
          "200": document("The providers", "ProviderList"),
          ...errors(["400", "QueryRefused"], ["406", "NotAcceptable"], ["415", "UnsupportedMediaType"], ["429", "TooManyRequests"], ["500", "InternalError"]),
        },
      },
    },
  };
}
