/**
 * The management API (connections, routing orders, the provider registry) in the same OpenAPI
 * document as the invoice API, so a client, the API reference page and the test suites' response
 * validator read one description of every route under /api. The request schemas state the
 * envelope; per-provider credential fields are described by GET /api/providers (they vary by
 * provider and kind, and are checked by the server against that registry).
 */
type Json = Record<string, unknown>;

const JSON_API = "application/vnd.api+json";
const REQUEST_TYPES = [JSON_API, "application/json"];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const SELF_LINK = { type: "object", required: ["self"], properties: { self: { type: "string", format: "uri" } } };
const COUNT_META = { type: "object", required: ["count"], properties: { count: { type: "integer", minimum: 0 } } };
/** One resource in `data`. */
const documentOf = (resource: string) => ({ type: "object", required: ["data"], properties: { data: ref(resource) } });
/** A list of resources with `meta.count`. */
const listOf = (resource: string) => ({
  type: "object",
  required: ["data", "meta"],
  properties: { data: { type: "array", items: ref(resource) }, meta: COUNT_META },
});
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

const timestamp = { type: "string", format: "date-time" };
const mode = { type: "string", enum: ["test", "live"] };
const meta = { type: "object", description: "Optional free-form meta information (JSON:API); accepted and ignored" };

export const MANAGEMENT_SCHEMAS: Readonly<Record<string, Json>> = {
  ConnectionResource: {
    type: "object",
    required: ["type", "id", "attributes", "links"],
    properties: {
      type: { const: "connection" },
      id: { type: "string", pattern: "^conn_" },
      attributes: {
        type: "object",
        required: ["provider", "kind", "label", "mode", "enabled", "currency", "credentials", "constants", "services", "created", "updated"],
        properties: {
          provider: { type: "string" },
          kind: { type: "string", enum: ["provider_account", "h2h"] },
          label: { type: "string" },
          mode,
          enabled: { type: "boolean" },
          currency: { type: ["string", "null"] },
          credentials: { type: "object", description: "Non-secret values in full; secrets only as their masked hint" },
          constants: { type: "object", additionalProperties: { type: "string" } },
          services: { type: "array", items: { type: "string" } },
          created: timestamp,
          updated: timestamp,
        },
      },
      links: SELF_LINK,
    },
  },
  ConnectionDocument: documentOf("ConnectionResource"),
  ConnectionList: listOf("ConnectionResource"),
  ConnectionCreateRequest: {
    type: "object",
    required: ["data"],
    properties: {
      data: {
        type: "object",
        required: ["type", "attributes"],
        properties: {
          type: { const: "connection" },
          attributes: {
            type: "object",
            required: ["provider", "kind", "label"],
            properties: {
              provider: { type: "string", minLength: 1, description: "A provider slug of GET /api/providers" },
              kind: { type: "string", enum: ["provider_account", "h2h"] },
              label: { type: "string", maxLength: 80, pattern: "\\S" },
              mode: { ...mode, description: "Required unless the kind reads it from a credential (Provider F: test_mode)" },
              credentials: { type: "object", description: "The kind's fields as GET /api/providers lists them" },
              constants: { type: "object", description: "The kind's constants as GET /api/providers lists them" },
            },
            additionalProperties: false,
          },
          meta,
        },
        additionalProperties: false,
      },
      meta,
      jsonapi: { type: "object" },
    },
  },
  ConnectionEditRequest: {
    type: "object",
    required: ["data"],
    properties: {
      data: {
        type: "object",
        required: ["type", "attributes"],
        properties: {
          type: { const: "connection" },
          id: { type: "string" },
          attributes: {
            type: "object",
            description: "Only the members sent change: label, enabled, credentials (a secret left out keeps its value), constants",
          },
          meta,
        },
      },
      meta,
      jsonapi: { type: "object" },
    },
  },
  RoutingOrderResource: {
    type: "object",
    required: ["type", "id", "attributes", "relationships", "links"],
    properties: {
      type: { const: "routing-order" },
      id: { type: "string", pattern: "^[a-z0-9_]+:(test|live)$", description: "service:mode" },
      attributes: {
        type: "object",
        required: ["service", "currency", "direction", "mode", "connection_ids", "connections", "updated"],
        properties: {
          service: { type: "string" },
          currency: { type: "string" },
          direction: { type: "string", enum: ["payment", "payout"] },
          mode,
          connection_ids: { type: "array", items: { type: "string" } },
          connections: {
            type: "array",
            items: {
              type: "object",
              required: ["id", "label", "provider", "kind", "enabled", "position"],
              properties: {
                id: { type: "string" },
                label: { type: "string" },
                provider: { type: "string" },
                kind: { type: "string" },
                enabled: { type: "boolean" },
                position: { type: "integer" },
              },
            },
          },
          updated: { anyOf: [timestamp, { type: "null" }] },
        },
      },
      relationships: {
        type: "object",
        properties: {
          connections: {
            type: "object",
            properties: { data: { type: "array", items: { type: "object", required: ["type", "id"], properties: { type: { const: "connection" }, id: { type: "string" } } } } },
          },
        },
      },
      links: SELF_LINK,
    },
  },
  RoutingOrderDocument: documentOf("RoutingOrderResource"),
  RoutingOrderList: listOf("RoutingOrderResource"),
  RoutingOrderRequest: {
    type: "object",
    required: ["data"],
    properties: {
      data: {
        type: "object",
        required: ["type", "attributes"],
        properties: {
          type: { const: "routing-order" },
          id: { type: "string", description: "If sent, the routing order of the URL (else 409)" },
          attributes: {
            type: "object",
            required: ["connection_ids"],
            properties: { connection_ids: { type: "array", items: { type: "string" }, description: "First to last; connections left out follow, oldest first" } },
            additionalProperties: false,
          },
          meta,
        },
      },
      meta,
      jsonapi: { type: "object" },
    },
  },
  ProviderResource: {
    type: "object",
    required: ["type", "id", "attributes"],
    properties: {
      type: { const: "provider" },
      id: { type: "string", description: "The provider's slug, e.g. provider-a" },
      attributes: {
        type: "object",
        required: ["name", "summary", "credentialHelp", "kinds", "services"],
        properties: {
          name: { type: "string" },
          summary: { type: "string" },
          credentialHelp: { type: "string" },
          kinds: { type: "array", items: { type: "object", required: ["kind", "label", "fields", "constants"] } },
          services: { type: "array", items: { type: "object", required: ["code", "direction", "currency"] } },
        },
      },
    },
  },
  ProviderList: {
    type: "object",
    required: ["data", "links", "meta"],
    properties: {
      data: { type: "array", items: ref("ProviderResource") },
      links: SELF_LINK,
      meta: COUNT_META,
    },
  },
};

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
        responses: { "200": document("The connection after the change", "ConnectionDocument"), ...errors(...KEYED, ...WITH_BODY, ["404", "ResourceNotFound"]) },
      },
      delete: {
        operationId: "deleteConnection",
        summary: "Remove a connection",
        responses: { "204": { description: "Deleted" }, ...errors(...KEYED, ["404", "ResourceNotFound"]) },
      },
    },
    "/api/routing": {
      get: {
        operationId: "listRoutingOrders",
        summary: "Every service × mode the merchant has a connection for, with its routing order",
        responses: { "200": document("The routing orders", "RoutingOrderList"), ...errors(...KEYED) },
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
        summary: "Reorder: connection_ids first to last",
        requestBody: requestBody("RoutingOrderRequest"),
        responses: {
          "200": document("The routing order after the change", "RoutingOrderDocument"),
          "409": { description: "data.id is not the routing order of the URL (code id_mismatch)", content: { [JSON_API]: { schema: ref("ErrorDocument") } } },
          ...errors(...KEYED, ...WITH_BODY, ["404", "ResourceNotFound"]),
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
