/**
 * Reading the invoice API's OpenAPI document for the API reference page: operations in document
 * order, $refs followed, a JSON Schema said in words. Pure, no React, so the page stays a server
 * component and ships no JavaScript.
 */

export type Json = Record<string, unknown>;

export const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export type Parameter = { name: string; in: string; required: boolean; description?: string; schema: Json };
export type Response = { status: string; description: string; schemaName?: string; headers: { name: string; description?: string }[] };
export type Operation = {
  id: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; mediaTypes: string[]; schemaName?: string };
  responses: Response[];
};

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** "#/components/schemas/InvoiceDocument" → its object in the document (and its last segment). */
export function resolveRef(doc: Json, ref: string): { name: string; value: Json } | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let value: unknown = doc;
  for (const part of ref.slice(2).split("/")) value = isObject(value) ? value[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  return isObject(value) ? { name: ref.split("/").at(-1)!, value } : undefined;
}

function deref(doc: Json, value: unknown): Json {
  const ref = isObject(value) ? text(value.$ref) : undefined;
  return (ref ? resolveRef(doc, ref)?.value : isObject(value) ? value : undefined) ?? {};
}

function schemaNameOf(content: unknown): string | undefined {
  if (!isObject(content)) return undefined;
  for (const media of Object.values(content)) {
    const ref = isObject(media) && isObject(media.schema) ? text(media.schema.$ref) : undefined;
    if (ref) return ref.split("/").at(-1);
  }
  return undefined;
}

export function listOperations(doc: Json): Operation[] {
  const paths = isObject(doc.paths) ? doc.paths : {};
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    // In the document's own order (create before list), as a reader of the JSON sees them.
    for (const [method, op] of Object.entries(item)) {
      if (!(METHODS as readonly string[]).includes(method) || !isObject(op)) continue;
      const parameters = (Array.isArray(op.parameters) ? op.parameters : []).map((raw): Parameter => {
        const p = deref(doc, raw);
        return { name: text(p.name) ?? "", in: text(p.in) ?? "", required: p.required === true, description: text(p.description), schema: isObject(p.schema) ? p.schema : {} };
      });
      const body = isObject(op.requestBody) ? deref(doc, op.requestBody) : undefined;
      const responses = Object.entries(isObject(op.responses) ? op.responses : {}).map(([status, raw]): Response => {
        const r = deref(doc, raw);
        return {
          status,
          description: text(r.description) ?? "",
          schemaName: schemaNameOf(r.content),
          headers: Object.entries(isObject(r.headers) ? r.headers : {}).map(([name, h]) => ({ name, description: isObject(h) ? text(h.description) : undefined })),
        };
      });
      operations.push({
        id: text(op.operationId) ?? `${method}-${path}`.replace(/[^A-Za-z0-9_-]/g, "-"),
        method,
        path,
        summary: text(op.summary),
        description: text(op.description),
        parameters,
        requestBody: body ? { required: body.required === true, mediaTypes: Object.keys(isObject(body.content) ? body.content : {}), schemaName: schemaNameOf(body.content) } : undefined,
        responses,
      });
    }
  }
  return operations;
}

const show = (value: unknown) => (typeof value === "string" ? `"${value}"` : JSON.stringify(value));

/** One line for a schema's type and rules: "string, 1–64 characters, pattern ^[a-z]+$". */
export function describeSchema(schema: Json): string {
  if (text(schema.$ref)) return text(schema.$ref)!.split("/").at(-1)!;
  if ("const" in schema) return `always ${show(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(show).join(", ")}`;
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (variants) return variants.map((v) => (isObject(v) ? describeSchema(v) : "any")).join(" or ");
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : (text(schema.type) ?? "any");
  const rules: string[] = [];
  if (type === "array" && isObject(schema.items)) rules.push(`of ${describeSchema(schema.items)}`);
  if (text(schema.format)) rules.push(`format ${text(schema.format)}`);
  const min = schema.minLength ?? schema.minItems;
  const max = schema.maxLength ?? schema.maxItems;
  const unit = type === "array" ? "items" : "characters";
  if (typeof min === "number" && typeof max === "number") rules.push(`${min}–${max} ${unit}`);
  else if (typeof min === "number" && min > 0) rules.push(`at least ${min} ${unit}`);
  else if (typeof max === "number") rules.push(`at most ${max} ${unit}`);
  if (typeof schema.minimum === "number") rules.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === "number") rules.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === "number") rules.push(`≤ ${schema.maximum}`);
  // A format (date-time) says what its generated pattern spells out unreadably.
  if (text(schema.pattern) && !text(schema.format)) rules.push(`pattern ${text(schema.pattern)}`);
  if (isObject(schema.additionalProperties)) rules.push(`values ${describeSchema(schema.additionalProperties)}`);
  if ("default" in schema) rules.push(`default ${show(schema.default)}`);
  return [type, ...rules].join(", ");
}

/** The members a reader can open: an object's properties, or those of an array's items or of each variant. */
export function childrenOf(schema: Json): { label: string; schema: Json; required: boolean }[] {
  if (isObject(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    return Object.entries(schema.properties).map(([name, value]) => ({ label: name, schema: isObject(value) ? value : {}, required: required.has(name) }));
  }
  if (isObject(schema.items)) return childrenOf(schema.items);
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  const withMembers = variants.filter((v): v is Json => isObject(v) && childrenOf(v).length > 0);
  if (withMembers.length === 1) return childrenOf(withMembers[0]!);
  return withMembers.map((v, i) => ({ label: `variant ${i + 1}`, schema: v, required: false }));
}
