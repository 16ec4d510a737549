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
  routingComparisonDocumentSchema,
  routingRollbackDocumentSchema,
  routingRollbackRequestSchema,
  routingVersionDocumentSchema,
  routingVersionListSchema,
} from "@/lib/api/management-schemas";
import { MODES } from "@/lib/providers";
import { THREE_DS_TEST_NOTE } from "@/lib/sandbox/cards";
import { getProvider } from "@/lib/providers/lookup";
import type { RoutingRule } from "@/lib/routing/rules";
import { diffVersions } from "@/lib/routing/version-diff";
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
    RoutingVersionList: toSchema(routingVersionListSchema),
    RoutingVersionDocument: toSchema(routingVersionDocumentSchema),
    RoutingComparisonDocument: toSchema(routingComparisonDocumentSchema),
    RoutingRollbackRequest: toSchema(routingRollbackRequestSchema),
    RoutingRollbackDocument: toSchema(routingRollbackDocumentSchema),
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

const requestBody = (schema: string, examples?: Json): Json => ({
  required: true,
  content: Object.fromEntries(REQUEST_TYPES.map((type) => [type, { schema: ref(schema), ...(examples ? { examples } : {}) }])),
});

/**
 * One provider of the registry as `GET /api/providers` answers it, its kinds left out for brevity:
 * what each provider supports beyond a sale is read from the registry itself.
 */
function providerListExample(): Json {
  const provider = getProvider("provider-c");
  const capabilities = provider ? { ...provider.capabilities } : {};
  return {
    summary: "Provider C: card tokens, authorize/capture and void, full capture only (kinds left out)",
    value: {
      data: [
        {
          type: "provider",
          id: "provider-c",
          attributes: {
            name: provider?.name ?? "Provider C",
            summary: provider?.summary ?? "",
            credentialHelp: provider?.credentialHelp ?? "",
            kinds: [],
            services: (provider?.services ?? []).map((service) => ({ ...service })),
            capabilities,
          },
        },
      ],
      links: { self: "https://pay.example.com/api/providers" },
      meta: { count: 6 },
    },
  };
}

/** A documented answer with examples of its body. */
const documentWithExamples = (description: string, schema: string, examples: Json): Json => ({
  description,
  content: { [JSON_API]: { schema: ref(schema), examples } },
});

/** 400 for a version parameter that is not a version number, or a comparison from a newer version to an older one. */
const versionQueryRefused = (names: string): Json => ({
  description:
    `A query parameter the operation does not document (unknown_parameter, unsupported_parameter), or ${names} not a version ` +
    "number (invalid_parameter) or from after to (invalid_range); source.parameter names it",
  content: { [JSON_API]: { schema: ref("ErrorDocument") } },
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

const ORDER_ID = idParameter("service:mode, e.g. payment_card_eur_hpp:test (the colon may be percent-encoded)");

const EXAMPLE_BASE = "https://pay.example.com/api/routing/payment_card_eur_hpp:test/versions";
const exampleRules: RoutingRule[] = [
  { name: "Big French", conditions: { amount_min: "100.00", customer_countries: ["FR"] }, outcome: { kind: "cascade", connection_ids: ["conn_f"] } },
];
const exampleVersion = (version: number, extra: Json): Json => ({
  type: "routing-version",
  id: `payment_card_eur_hpp:test:${version}`,
  attributes: {
    service: "payment_card_eur_hpp",
    mode: "test",
    version,
    current: false,
    restored_from: null,
    saved_by: "Ada Owner <ada@example.com>",
    saved: `2026-11-2${version}T10:00:00.000Z`,
    connection_ids: ["conn_b", "conn_f"],
    rules: exampleRules,
    ...extra,
  },
  links: { self: `${EXAMPLE_BASE}/${version}` },
});
const VERSION_LIST_EXAMPLE = {
  data: [
    exampleVersion(3, { current: true, restored_from: 1, summary: "Rolled back to version 1" }),
    exampleVersion(2, { rules: [], summary: "Rule “Big French” removed" }),
    exampleVersion(1, { summary: "First save: 1 rule, then Provider B, Provider F" }),
  ],
  links: { self: EXAMPLE_BASE, next: null },
  meta: { count: 3, current: 3 },
};
/** Made by the comparison itself (lib/routing/version-diff.ts), so the example says what the API says. */
const COMPARISON_EXAMPLE = (() => {
  const facts = [
    { id: "conn_b", label: "Provider B", state: "enabled" as const },
    { id: "conn_f", label: "Provider F", state: "disabled" as const },
  ];
  const diff = diffVersions(
    { version: 1, rules: exampleRules, connectionIds: ["conn_b", "conn_f"] },
    { version: 2, rules: [], connectionIds: ["conn_f", "conn_b"] },
    "EUR",
    facts,
  );
  return {
    data: {
      type: "routing-comparison",
      id: "payment_card_eur_hpp:test:1..2",
      attributes: {
        service: "payment_card_eur_hpp",
        mode: "test",
        from: 1,
        to: 2,
        identical: false,
        changes: diff.changes.map((change) => ({
          kind: change.kind,
          sentence: change.sentence,
          rule: change.rule ?? null,
          connection_id: change.connectionId ?? null,
        })),
        notes: diff.notes.map((note) => ({ connection_id: note.connectionId, state: note.state, sentence: note.sentence })),
      },
    },
  };
})();

/**
 * Request bodies the API accepts when sent as shown (tests/integration/openapi-examples.test.ts sends
 * each through its route): a Provider B test connection (its credentials as the sandbox takes them),
 * a label change, the EUR card payment service's routing and a simulation of it, the default settings.
 */
const CONNECTION_CREATE_EXAMPLES: Json = {
  providerB: {
    summary: "Provider B, host-to-host, test mode",
    value: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: "Provider B EUR",
          mode: "test",
          credentials: { terminal_id: "TERM-7781", secret_key: "c2FtcGxlLXNlY3JldC1rZXktMDAwMQ", currency: "EUR" },
          constants: {},
        },
      },
    },
  },
};
const CONNECTION_EDIT_EXAMPLES: Json = {
  rename: {
    summary: "Rename it and keep it enabled (secrets left out keep their values)",
    value: { data: { type: "connection", attributes: { label: "Provider B, EUR cards", enabled: true } } },
  },
};
const ROUTING_ORDER_EXAMPLES: Json = {
  clearRules: {
    summary: "Remove every rule: the routing order alone decides (for PATCH /api/routing/payment_card_eur_hpp:test)",
    value: { data: { type: "routing-order", attributes: { rules: [] } } },
  },
};
const SIMULATION_EXAMPLES: Json = {
  frenchPayment: {
    summary: "A 120.00 EUR test card payment from France, card not known yet",
    value: { data: { type: "routing-simulation", attributes: { service: "payment_card_eur_hpp", test_mode: true, amount: "120.00", customer_country: "FR" } } },
  },
};
const SETTINGS_EXAMPLES: Json = {
  defaults: {
    summary: "The defaults: a 24-hour window, 20 attempts before a rate counts, 5% exploration (a live key)",
    value: { data: { type: "routing-settings", id: "routing-settings", attributes: { window_hours: 24, min_sample: 20, exploration_percent: 5 } } },
  },
};

export function managementPaths(): Json {
  return {
    "/api/connections": {
      get: {
        operationId: "listConnections",
        summary: "The merchant's connections",
        parameters: [
          filter("filter[provider]", "Only this provider's connections", { type: "string" }),
          filter("filter[mode]", "test or live (anything else answers 400); the other mode than the API key's answers 403 key_mode_mismatch", mode),
          filter("filter[state]", "enabled or disabled (anything else answers 400)", { type: "string", enum: ["enabled", "disabled"] }),
        ],
        description: "The connections of the API key's mode only.",
        responses: { "200": document("The connections", "ConnectionList"), ...errors(...KEYED, ["403", "KeyModeMismatch"]) },
      },
      post: {
        operationId: "createConnection",
        summary: "Connect a provider account",
        requestBody: requestBody("ConnectionCreateRequest", CONNECTION_CREATE_EXAMPLES),
        description: "In the API key's mode only: a pok_test_ key creates test connections, a pok_live_ key live ones.",
        responses: { "201": document("Created", "ConnectionDocument", LOCATION), ...errors(...KEYED, ...WITH_BODY, ["403", "ManagementForbidden"]) },
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
        requestBody: requestBody("ConnectionEditRequest", CONNECTION_EDIT_EXAMPLES),
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
        summary: "Every service the merchant has a connection for in the API key's mode, with its routing order",
        responses: { "200": document("The routing orders", "RoutingOrderList"), ...errors(...KEYED) },
      },
    },
    "/api/routing/simulate": {
      post: {
        operationId: "simulateRouting",
        summary: "What routing would do with an invoice of these attributes: the rule that matches, the split's branch, the order and why; creates nothing",
        description:
          "The same decision invoice creation makes, over the saved rules (or the draft rules sent). Without card_bin a payment's " +
          "card is not known yet, as before Pay: rules on the card are passed over and named in waiting_for_card. In the API key's " +
          "mode only (test_mode true for a pok_test_ key, absent or false for a pok_live_ one; otherwise 403 key_mode_mismatch).",
        requestBody: requestBody("RoutingSimulationRequest", SIMULATION_EXAMPLES),
        responses: { "200": document("The routing decision", "RoutingSimulationDocument"), ...errors(...KEYED, ...WITH_BODY, ["403", "KeyModeMismatch"]) },
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
          "(unavailable, authentication, unknown outcomes); card and customer declines are not. The settings hold for both " +
          "modes, so only a live key changes them: a test key answers 403 key_mode_mismatch.",
        requestBody: requestBody("RoutingSettingsRequest", SETTINGS_EXAMPLES),
        responses: {
          "200": document("The settings after the change", "RoutingSettingsDocument"),
          "409": { description: "data.id is not routing-settings (code id_mismatch)", content: { [JSON_API]: { schema: ref("ErrorDocument") } } },
          ...errors(...KEYED, ...WITH_BODY, ["403", "SettingsForbidden"], ["404", "ResourceNotFound"]),
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
          "that offers the service, when a split's shares do not add up to 100, when an amount does not fit the currency, or " +
          "when it requires 3-D Secure (require_three_ds) and none of its enabled connections is of a provider that can " +
          "(three_ds_not_offered). " +
          THREE_DS_TEST_NOTE,
        requestBody: requestBody("RoutingOrderRequest", ROUTING_ORDER_EXAMPLES),
        responses: {
          "200": document("The routing order after the change", "RoutingOrderDocument"),
          "409": { description: "data.id is not the routing order of the URL (code id_mismatch)", content: { [JSON_API]: { schema: ref("ErrorDocument") } } },
          ...errors(...KEYED, ...WITH_BODY, ["403", "ReadOnlyKey"], ["404", "ResourceNotFound"]),
        },
      },
    },
    "/api/routing/{id}/versions": {
      parameters: [ORDER_ID],
      get: {
        operationId: "listRoutingVersions",
        summary: "The versions of one routing order, newest first: each save (and rollback) with its author, time and a one-line summary",
        parameters: [
          filter("page[size]", "Versions per page, 1 to 100 (default 20)", { type: "integer", minimum: 1, maximum: 100 }),
          filter("page[before]", "Only versions older than this one (links.next gives it)", { type: "integer", minimum: 1 }),
        ],
        responses: {
          "200": documentWithExamples("The versions", "RoutingVersionList", { history: { value: VERSION_LIST_EXAMPLE } }),
          ...errors(...KEYED, ["404", "ResourceNotFound"]),
          "400": versionQueryRefused("page[size] or page[before]"),
        },
      },
    },
    "/api/routing/{id}/versions/{version}": {
      parameters: [
        ORDER_ID,
        { name: "version", in: "path", required: true, description: "The version number, from 1", schema: { type: "integer", minimum: 1 } },
      ],
      get: {
        operationId: "getRoutingVersion",
        summary: "One version of a routing order: its rules and order as saved, who saved it and when",
        responses: {
          "200": documentWithExamples("The version", "RoutingVersionDocument", { version: { value: { data: VERSION_LIST_EXAMPLE.data[1] } } }),
          ...errors(...KEYED, ["404", "ResourceNotFound"]),
        },
      },
    },
    "/api/routing/{id}/compare": {
      parameters: [ORDER_ID],
      get: {
        operationId: "compareRoutingVersions",
        summary: "What changed from one version to another, as sentences: rules added, removed, changed and moved; connections moved in the routing order",
        description: "Connections either version names that are deleted or disabled now are listed in notes. An unknown version answers 404.",
        parameters: [
          filter("from", "The older version (default: the one before `to`)", { type: "integer", minimum: 1 }),
          filter("to", "The newer version (default: the current one)", { type: "integer", minimum: 1 }),
        ],
        responses: {
          "200": documentWithExamples("The changes", "RoutingComparisonDocument", { changes: { value: COMPARISON_EXAMPLE } }),
          ...errors(...KEYED, ["404", "ResourceNotFound"]),
          "400": versionQueryRefused("from or to"),
        },
      },
    },
    "/api/routing/{id}/rollback": {
      parameters: [ORDER_ID],
      post: {
        operationId: "rollBackRouting",
        summary: "Roll back to an earlier version: its rules and order become a new version (audit log: routing.rolled_back)",
        description:
          "Checked as a save is. A version with a rule that names a connection deleted since, or a rule none of whose connections " +
          "is enabled now, is refused (422 cannot_restore, pointer /data/attributes/version, the sentence names the rule and the " +
          "connection): the rules are restored exactly or not at all. Connections deleted since are left out of the routing order. " +
          "A version routing uses already changes nothing: meta.changed is false. An unknown version answers 404.",
        requestBody: requestBody("RoutingRollbackRequest", { version: { value: { data: { type: "routing-rollback", attributes: { version: 2 } } } } }),
        responses: {
          "200": document("The routing order after the rollback; meta says what happened", "RoutingRollbackDocument"),
          ...errors(...KEYED, ...WITH_BODY, ["403", "ReadOnlyKey"], ["404", "ResourceNotFound"]),
        },
      },
    },
    "/api/providers": {
      get: {
        operationId: "listProviders",
        summary: "The provider registry: kinds, credential fields, constants, services and capabilities (public, no secrets)",
        security: [],
        responses: {
          "200": documentWithExamples("The providers", "ProviderList", { capabilities: providerListExample() }),
          ...errors(["400", "QueryRefused"], ["406", "NotAcceptable"], ["415", "UnsupportedMediaType"], ["429", "TooManyRequests"], ["500", "InternalError"]),
        },
      },
    },
  };
}
