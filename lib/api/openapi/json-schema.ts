import { z } from "zod";

export type Json = Record<string, unknown>;

export const JSON_API = "application/vnd.api+json";
/** REFERENCE "Errors": both media types are accepted on requests. */
export const REQUEST_TYPES = [JSON_API, "application/json"];

/**
 * A zod schema as the document publishes it, described as the client sends it (`io: "input"`):
 * before the card number loses its separators. Refinements (Luhn, currency rules) cannot be
 * expressed in JSON Schema and are left out; `unrepresentable: "any"` keeps an unexpected
 * construct from throwing.
 */
export function toSchema(schema: z.ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
