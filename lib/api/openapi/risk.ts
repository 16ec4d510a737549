import { JSON_API, type Json } from "./json-schema";

/**
 * The blocklist operations of the OpenAPI document (`/api/risk/blocklist`): a key reads and changes
 * its own mode's entries only. A card entry (added from an invoice's page) shows its brand and last
 * four as `value`, never a number.
 */
const attributes: Json = {
  type: "object",
  properties: {
    kind: { enum: ["card", "bin", "email", "address", "country"] },
    value: { type: "string", description: "The BIN digits, lower-case e-mail, address or CIDR range, country code; for a card its brand and last four" },
    note: { type: "string", maxLength: 200 },
    test_mode: { type: "boolean" },
    created_by: { type: "string" },
    created: { type: "string", format: "date-time" },
  },
};

const resource: Json = {
  type: "object",
  properties: {
    id: { type: "string", description: "bl_…" },
    type: { const: "blocklist-entries" },
    attributes,
    links: { type: "object", properties: { self: { type: "string", format: "uri" } } },
  },
  required: ["id", "type", "attributes", "links"],
};

export const RISK_SCHEMAS: Readonly<Record<string, Json>> = {
  BlocklistEntryDocument: { type: "object", properties: { data: resource }, required: ["data"] },
  BlocklistEntryList: { type: "object", properties: { data: { type: "array", items: resource }, meta: { type: "object" } }, required: ["data"] },
  BlocklistEntryCreate: {
    type: "object",
    properties: {
      data: {
        type: "object",
        properties: {
          type: { const: "blocklist-entries" },
          attributes: {
            type: "object",
            properties: {
              kind: { enum: ["bin", "email", "address", "country"] },
              value: { type: "string", maxLength: 254, examples: ["fraud@example.com", "411111", "203.0.113.0/24", "GB"] },
              note: { type: "string", maxLength: 200 },
            },
            required: ["kind", "value"],
            additionalProperties: false,
          },
        },
        required: ["type", "attributes"],
      },
    },
    required: ["data"],
  },
};

const ID: Json = { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^bl_[A-Za-z0-9_-]{1,64}$" } };
type ErrorRefs = (...codes: [string, string][]) => Json;

const document = (name: string, description: string): Json => ({ description, content: { [JSON_API]: { schema: { $ref: `#/components/schemas/${name}` } } } });

export function riskPaths(errors: ErrorRefs): Json {
  return {
    "/api/risk/blocklist": {
      get: {
        operationId: "listBlocklist",
        summary: "The key's mode's blocklist, newest first",
        description:
          "A Pay matching an entry is refused before any provider (blocked_by_risk, a risk.blocked event); a create whose customer e-mail or country, or payout card, matches is refused 422 blocked_by_risk naming the rule.",
        responses: { "200": document("BlocklistEntryList", "The entries"), ...errors(["400", "QueryRefused"]) },
      },
      post: {
        operationId: "addBlocklistEntry",
        summary: "Block a BIN, an e-mail, a client address or range, or a customer country",
        description: "201 with the entry, in the key's mode; the same value again answers the entry already there. Audited.",
        requestBody: {
          required: true,
          content: {
            [JSON_API]: {
              schema: { $ref: "#/components/schemas/BlocklistEntryCreate" },
              examples: {
                email: {
                  summary: "Block a customer e-mail",
                  value: { data: { type: "blocklist-entries", attributes: { kind: "email", value: "fraud@example.com", note: "chargeback" } } },
                },
                range: {
                  summary: "Block a client address range",
                  value: { data: { type: "blocklist-entries", attributes: { kind: "address", value: "203.0.113.0/24" } } },
                },
              },
            },
          },
        },
        responses: {
          "201": document("BlocklistEntryDocument", "The entry"),
          ...errors(["400", "BadRequest"], ["403", "Forbidden"], ["413", "PayloadTooLarge"], ["422", "UnprocessableEntity"]),
        },
      },
    },
    "/api/risk/blocklist/{id}": {
      get: {
        operationId: "getBlocklistEntry",
        summary: "Read one entry",
        description: "Another merchant's, or the other mode's than the key's, answers 404 like an unknown id.",
        parameters: [ID],
        responses: { "200": document("BlocklistEntryDocument", "The entry"), ...errors(["400", "QueryRefused"], ["404", "NotFound"]) },
      },
      delete: {
        operationId: "removeBlocklistEntry",
        summary: "Remove an entry",
        description: "204; Pays and creates no longer match it. Audited.",
        parameters: [ID],
        responses: { "204": { description: "Removed" }, ...errors(["400", "QueryRefused"], ["403", "Forbidden"], ["404", "NotFound"]) },
      },
    },
  };
}
