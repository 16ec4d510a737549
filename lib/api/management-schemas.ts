import { z } from "zod";
import { DISPUTE_RATE_DAYS, HEALTH_RULE_TEXT, HEALTH_WINDOW } from "@/lib/analytics/connection-health";
import { labelSchema } from "@/lib/connections/schemas";
import { CONNECTION_HEALTHS } from "@/lib/db/enums";
import { CONNECTION_KINDS, MODES } from "@/lib/providers";
import { connectionIdsSchema, versionNumberSchema } from "@/lib/routing/schemas";
import { routingRulesSchema } from "@/lib/routing/rules";
import { simulationInputSchema } from "@/lib/routing/simulate";
import { VERSION_CHANGE_KINDS } from "@/lib/routing/version-diff";
import { successSettingsSchema } from "@/lib/routing/success-settings";

/**
 * The management API's documents (connections, routing orders, the provider registry): the
 * routes parse request attributes with these where the shape is all there is to check, and the
 * OpenAPI document (lib/api/openapi/management.ts) is generated from every one of them. Answers
 * are plain (non-strict) objects: fields are only ever added, and clients ignore unknown ones.
 * Per-provider credential fields and constants are described by GET /api/providers: they vary by
 * provider and kind, and the server checks them against that registry.
 */

const modeSchema = z.enum(MODES);
const kindSchema = z.enum(CONNECTION_KINDS);
const timestamp = z.iso.datetime();
const selfLink = z.object({ self: z.url() });
const countMeta = z.object({ count: z.int().min(0) });
const freeMeta = z.record(z.string(), z.unknown()).optional().meta({ description: "Optional free-form meta information (JSON:API); accepted and ignored" });
const jsonapiMember = z.record(z.string(), z.unknown()).optional();

/** A request document: `data` with the resource's type and attributes, and JSON:API's optional members. */
function requestDocument(type: string, data: { attributes: z.ZodType; id?: z.ZodType; strict?: boolean }) {
  const shape = { type: z.literal(type), ...(data.id ? { id: data.id.optional() } : {}), attributes: data.attributes, meta: freeMeta };
  return z.object({ data: data.strict ? z.strictObject(shape) : z.object(shape), meta: freeMeta, jsonapi: jsonapiMember });
}

/** GET /api/connections' `health`: lib/api/connection-resource.ts toHealthAttribute. */
export const connectionHealthSchema = z
  .object({
    state: z.enum(CONNECTION_HEALTHS).meta({ description: `The connection's health, as the dashboard shows it. ${HEALTH_RULE_TEXT}` }),
    since: timestamp.nullable().meta({ description: "When the state last changed; null if it never changed since the connection was added" }),
    recent_outcomes: z
      .object({
        counted: z.int().min(0).max(HEALTH_WINDOW),
        succeeded: z.int().min(0),
        failed: z
          .int()
          .min(0)
          .meta({ description: "Technical failures: no answer, an unknown outcome, or the provider unavailable or refusing the credentials" }),
        success_rate: z.number().min(0).max(1).nullable().meta({ description: "succeeded ÷ counted, null while nothing is counted" }),
        failures_in_a_row: z.int().min(0).meta({ description: "Technical failures since the last success" }),
      })
      .meta({ description: `The figures the rule read: the connection's last ${HEALTH_WINDOW} outcomes that say something about the provider` }),
    last_error: z
      .object({ at: timestamp, resolution: z.string().nullable(), message: z.string().nullable() })
      .nullable()
      .meta({ description: "The latest technical failure of an attempt on this connection" }),
    dispute_rate_high: z.boolean().meta({
      description: `Whether the connection's dispute rate over its last ${DISPUTE_RATE_DAYS} days holds it at degraded at least (the rule above)`,
    }),
  })
  .meta({
    examples: [
      {
        state: "failing",
        since: "2026-11-29T09:41:07.312Z",
        recent_outcomes: { counted: 14, succeeded: 11, failed: 3, success_rate: 0.7857, failures_in_a_row: 3 },
        last_error: { at: "2026-11-29T09:41:07.298Z", resolution: "provider_unavailable", message: "HTTP 503 from the provider" },
        dispute_rate_high: false,
      },
    ],
  });

export const connectionResourceSchema = z.object({
  type: z.literal("connection"),
  id: z.string().regex(/^conn_/),
  attributes: z.object({
    provider: z.string(),
    kind: kindSchema,
    label: z.string(),
    mode: modeSchema,
    enabled: z.boolean(),
    currency: z.string().nullable(),
    credentials: z.record(z.string(), z.unknown()).meta({ description: "Non-secret values in full; secrets only as their masked hint" }),
    constants: z.record(z.string(), z.string()),
    services: z.array(z.string()),
    health: connectionHealthSchema,
    created: timestamp,
    updated: timestamp,
  }),
  links: selfLink,
});

export const connectionDocumentSchema = z.object({ data: connectionResourceSchema });
export const connectionListSchema = z.object({ data: z.array(connectionResourceSchema), meta: countMeta });

/**
 * POST /api/connections' attributes as a client sends them. The route parses them with
 * createConnectionSchema (lib/connections/schemas.ts), which reports every attribute's problems at
 * once and checks credentials and constants against the kind; the shape is the same.
 */
const connectionCreateAttributesSchema = z.strictObject({
  provider: z.string().min(1).meta({ description: "A provider slug of GET /api/providers" }),
  kind: kindSchema,
  label: labelSchema.meta({ pattern: "\\S" }),
  mode: modeSchema.optional().meta({ description: "Required unless the kind reads it from a credential (Provider F: test_mode)" }),
  credentials: z.record(z.string(), z.unknown()).optional().meta({ description: "The kind's fields as GET /api/providers lists them" }),
  constants: z.record(z.string(), z.unknown()).optional().meta({ description: "The kind's constants as GET /api/providers lists them" }),
});

export const connectionCreateRequestSchema = requestDocument("connection", { attributes: connectionCreateAttributesSchema, strict: true });

export const connectionEditRequestSchema = requestDocument("connection", {
  id: z.string(),
  attributes: z.record(z.string(), z.unknown()).meta({
    description: "Only the members sent change: label, enabled, credentials (a secret left out keeps its value), constants",
  }),
});

/** PATCH /api/routing/{id}'s attributes: the route parses them with this very schema. */
export const routingOrderAttributesSchema = z
  .strictObject({
    connection_ids: connectionIdsSchema
      .optional()
      .meta({ description: "The default rule (the routing order), first to last; connections left out follow, oldest first. Left out: unchanged" }),
    rules: routingRulesSchema.optional().meta({
      description:
        "The rules before the default, first to last; the first whose conditions all hold decides. Replaces the saved rules " +
        "(send [] to remove them all); left out: unchanged. Each save is a new version",
    }),
  })
  .superRefine((value, ctx) => {
    // Neither sent: connection_ids is what is missing (rules are the optional addition).
    if (value.connection_ids === undefined && value.rules === undefined) {
      ctx.addIssue({ code: "invalid_type", expected: "array", input: undefined, path: ["connection_ids"], message: "Send connection_ids, rules or both" });
    }
  });

export const routingOrderRequestSchema = requestDocument("routing-order", {
  id: z.string().meta({ description: "If sent, the routing order of the URL (else 409)" }),
  attributes: routingOrderAttributesSchema,
});

export const routingOrderResourceSchema = z.object({
  type: z.literal("routing-order"),
  id: z
    .string()
    .regex(/^[a-z0-9_]+:(test|live)$/)
    .meta({ description: "service:mode" }),
  attributes: z.object({
    service: z.string(),
    currency: z.string(),
    direction: z.enum(["payment", "payout"]),
    mode: modeSchema,
    connection_ids: z.array(z.string()),
    rules: routingRulesSchema.meta({ description: "The rules before the default rule (connection_ids), first to last" }),
    version: z.int().min(0).meta({ description: "Saves so far, each one a version; 0 while never saved" }),
    connections: z.array(z.object({ id: z.string(), label: z.string(), provider: z.string(), kind: z.string(), enabled: z.boolean(), position: z.int() })),
    updated: timestamp.nullable(),
  }),
  relationships: z.object({
    connections: z.object({ data: z.array(z.object({ type: z.literal("connection"), id: z.string() })).optional() }).optional(),
  }),
  links: selfLink,
});

export const routingSimulationRequestSchema = requestDocument("routing-simulation", { attributes: simulationInputSchema, strict: true });

const ruleRef = z.object({ position: z.int().min(1), name: z.string() });

export const routingSimulationDocumentSchema = z.object({
  data: z.object({
    type: z.literal("routing-simulation"),
    id: z.string().regex(/^sim_/).meta({ description: "Names this answer only; nothing is stored" }),
    attributes: z.object({
      service: z.string(),
      mode: modeSchema,
      version: z.int().min(0).nullable().meta({ description: "The saved routing version simulated; null when draft rules were sent" }),
      rule: ruleRef.nullable().meta({ description: "The rule that would decide; null for the default rule (the routing order)" }),
      branch: z
        .object({ position: z.int().min(1), weight: z.int().min(1).max(100), draw: z.number().min(0).lt(100) })
        .nullable()
        .meta({ description: "For a split: the branch drawn, its share and the draw" }),
      connection_ids: z.array(z.string()).meta({ description: "Where the invoice would go first, then its cascade; empty when no connection could take it" }),
      connections: z.array(z.object({ id: z.string(), label: z.string() })),
      skipped: z.array(z.object({ id: z.string(), why: z.string() })).meta({ description: "Connections passed over, and why" }),
      waiting_for_card: z.array(ruleRef).meta({ description: "Rules on the card passed over because no card_bin was given" }),
      fell_through: z.array(ruleRef).meta({ description: "Rules that matched but had no connection able to take the invoice" }),
      card: z.object({ brand: z.string().nullable(), country: z.string().nullable() }).nullable(),
      three_ds: z
        .enum(["required", "provider"])
        .meta({ description: "required: the deciding rule requires 3-D Secure, so Pay would ask the provider for it; provider: the provider decides" }),
      success_rate: z
        .object({
          window_hours: z.int().min(1),
          min_sample: z.int().min(1),
          exploration_percent: z.int().min(0).max(100),
          connections: z.array(z.object({ id: z.string(), attempts: z.int().min(0), successes: z.int().min(0), trusted: z.boolean() })),
          explored: z.string().nullable(),
        })
        .nullable()
        .meta({ description: "When the deciding outcome orders by success rate: each connection's counts in the window now, and whether the draw explored" }),
      explanation: z.string().meta({ description: "The sentence the invoice would carry in attributes.routing.explanation" }),
    }),
  }),
});

export const routingSettingsRequestSchema = requestDocument("routing-settings", {
  id: z.literal("routing-settings").meta({ description: "If sent, routing-settings (else 409)" }),
  attributes: successSettingsSchema,
});

export const routingSettingsDocumentSchema = z.object({
  data: z.object({
    type: z.literal("routing-settings"),
    id: z.literal("routing-settings"),
    attributes: z.object({
      window_hours: z.int().min(1).max(168).meta({ description: "The sliding window success rates are counted over, in hours" }),
      min_sample: z.int().min(1).meta({ description: "Attempts within the window before a connection's rate is trusted" }),
      exploration_percent: z.int().min(0).max(20).meta({ description: "Percent of invoices that try another connection first" }),
    }),
  }),
});

/** POST /api/routing/{id}/rollback's attributes: the route parses them with this very schema. */
export const routingRollbackAttributesSchema = z.strictObject({
  version: versionNumberSchema("version").meta({ description: "The version to restore: its rules and routing order become a new version", examples: [2] }),
});

export const routingRollbackRequestSchema = requestDocument("routing-rollback", { attributes: routingRollbackAttributesSchema, strict: true });

const versionId = z
  .string()
  .regex(/^[a-z0-9_]+:(test|live):[1-9]\d*$/)
  .meta({ description: "service:mode:version" });

const routingVersionResourceSchema = z.object({
  type: z.literal("routing-version"),
  id: versionId,
  attributes: z.object({
    service: z.string(),
    mode: modeSchema,
    version: z.int().min(1),
    current: z.boolean().meta({ description: "Whether routing uses this version now (the latest)" }),
    restored_from: z.int().min(1).nullable().meta({ description: "For a rollback: the version whose rules and order it restored" }),
    summary: z.string().meta({ description: "One line: what this version changed from the one before it" }),
    saved_by: z.string().nullable().meta({ description: "The person or API key that saved it, as the audit log names them" }),
    saved: timestamp,
    connection_ids: z.array(z.string()).meta({ description: "The default rule (the routing order) as saved, first to last" }),
    rules: routingRulesSchema.meta({ description: "The rules before the default rule, as saved" }),
  }),
  links: selfLink,
});

export const routingVersionDocumentSchema = z.object({ data: routingVersionResourceSchema });
export const routingVersionListSchema = z.object({
  data: z.array(routingVersionResourceSchema).meta({ description: "Newest first" }),
  links: z.object({ self: z.url(), next: z.url().nullable().meta({ description: "The older versions; null on the last page" }) }),
  meta: z.object({
    count: z.int().min(0).meta({ description: "Versions on this page" }),
    current: z.int().min(0).meta({ description: "The current version (0: never saved)" }),
  }),
});

const ruleChangeRef = z.object({ position: z.int().min(1), name: z.string() });

export const routingComparisonDocumentSchema = z.object({
  data: z.object({
    type: z.literal("routing-comparison"),
    id: z.string().meta({ description: "service:mode:from..to" }),
    attributes: z.object({
      service: z.string(),
      mode: modeSchema,
      from: z.int().min(1),
      to: z.int().min(1),
      identical: z.boolean().meta({ description: "True when the two versions route the same way" }),
      changes: z
        .array(
          z.object({
            kind: z.enum(VERSION_CHANGE_KINDS),
            sentence: z.string().meta({ description: "The change as the Routing page's history says it" }),
            rule: ruleChangeRef
              .nullable()
              .meta({ description: "For rule changes: its position (in the newer version; in the older one when removed) and name" }),
            connection_id: z.string().nullable().meta({ description: "For routing order changes: the connection" }),
          }),
        )
        .meta({ description: "From `from` to `to`: rules removed, added, changed, moved; connections that joined, left or moved in the routing order" }),
      notes: z
        .array(z.object({ connection_id: z.string(), state: z.enum(["disabled", "deleted"]), sentence: z.string() }))
        .meta({ description: "Connections either version names that are deleted or disabled now" }),
    }),
  }),
});

/** The rollback's answer: the routing order after it, and what happened in meta. */
export const routingRollbackDocumentSchema = z.object({
  data: routingOrderResourceSchema,
  meta: z.object({
    restored: z.int().min(1).meta({ description: "The version restored" }),
    version: z.int().min(1).nullable().meta({ description: "The new version the rollback saved; null when nothing changed" }),
    changed: z.boolean(),
    message: z.string().meta({ description: "“Rolled back to version 2 as version 5.”, or why nothing changed" }),
  }),
});

export const routingOrderDocumentSchema = z.object({ data: routingOrderResourceSchema });
export const routingOrderListSchema = z.object({ data: z.array(routingOrderResourceSchema), meta: countMeta });

export const providerResourceSchema = z.object({
  type: z.literal("provider"),
  id: z.string().meta({ description: "The provider's slug, e.g. provider-a" }),
  attributes: z.object({
    name: z.string(),
    summary: z.string(),
    credentialHelp: z.string(),
    kinds: z.array(z.looseObject({ kind: z.string(), label: z.string(), fields: z.array(z.unknown()), constants: z.array(z.unknown()) })),
    services: z.array(z.looseObject({ code: z.string(), direction: z.enum(["payment", "payout"]), currency: z.string() })),
    capabilities: z
      .object({
        cardTokens: z
          .boolean()
          .meta({ description: "Saves the card behind its own token, charged later without the card (gateway_options.cardgate.tokenize)" }),
        authorizeCapture: z.boolean().meta({ description: 'Authorizes now and captures later (flow "authorize")' }),
        threeDSecure: z.boolean().meta({ description: "Authenticates the customer with 3-D Secure when a routing rule requires it" }),
        partialCapture: z.boolean().meta({ description: "Captures less than it authorized, releasing the rest; false: full capture only" }),
        void: z.boolean().meta({ description: "Voids an authorization, taking nothing" }),
        authorizationHoldHours: z
          .int()
          .min(1)
          .nullable()
          .meta({ description: "How long an authorization holds before it lapses; null without authorize/capture" }),
        note: z.string().meta({ description: "Why, from the provider's character in the specification" }),
      })
      .meta({
        description:
          "What the provider supports beyond a sale; routing considers only connections whose provider can do what the invoice asks. Payouts use none of it",
      }),
  }),
});

export const providerListSchema = z.object({ data: z.array(providerResourceSchema), links: selfLink, meta: countMeta });
