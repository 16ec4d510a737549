import { z } from "zod";
import { labelSchema } from "@/lib/connections/schemas";
import { CONNECTION_KINDS, MODES } from "@/lib/providers";
import { connectionIdsSchema } from "@/lib/routing/schemas";

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
export const connectionCreateAttributesSchema = z.strictObject({
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
export const routingOrderAttributesSchema = z.strictObject({
  connection_ids: connectionIdsSchema.meta({ description: "First to last; connections left out follow, oldest first" }),
});

export const routingOrderRequestSchema = requestDocument("routing-order", {
  id: z.string().meta({ description: "If sent, the routing order of the URL (else 409)" }),
  attributes: routingOrderAttributesSchema,
});

export const routingOrderResourceSchema = z.object({
  type: z.literal("routing-order"),
  id: z.string().regex(/^[a-z0-9_]+:(test|live)$/).meta({ description: "service:mode" }),
  attributes: z.object({
    service: z.string(),
    currency: z.string(),
    direction: z.enum(["payment", "payout"]),
    mode: modeSchema,
    connection_ids: z.array(z.string()),
    connections: z.array(
      z.object({ id: z.string(), label: z.string(), provider: z.string(), kind: z.string(), enabled: z.boolean(), position: z.int() }),
    ),
    updated: timestamp.nullable(),
  }),
  relationships: z.object({
    connections: z.object({ data: z.array(z.object({ type: z.literal("connection"), id: z.string() })).optional() }).optional(),
  }),
  links: selfLink,
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
  }),
});

export const providerListSchema = z.object({ data: z.array(providerResourceSchema), links: selfLink, meta: countMeta });
