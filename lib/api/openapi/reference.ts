import type { Json } from "./json-schema";

/**
 * The API reference page's view model, shaped from the OpenAPI document (pure data: no React, no
 * I/O). Operations grouped by tag in the document's order; schemas flattened into rows a table can
 * show (nested members indented by depth, required marked, enums and limits listed); examples as
 * pretty JSON; error answers resolved from components.responses. The page renders this on the
 * server, so the reference reads completely without JavaScript.
 */

export type SchemaRow = {
  /** Unique within its table: the member's path, e.g. data.attributes.amount. */
  key: string;
  name: string;
  depth: number;
  type: string;
  required: boolean;
  description?: string;
  enumValues?: string[];
  constraints: string[];
};

type ExampleView = { name: string; summary?: string; description?: string; json: string };

type ParameterView = { name: string; in: string; required: boolean; type: string; description?: string; enumValues?: string[]; constraints: string[] };

type ResponseView = {
  status: string;
  description: string;
  success: boolean;
  schemaName?: string;
  mediaTypes: string[];
  /** An inline body's members; a named schema (schemaName) is shown once, in the reference's schemas. */
  rows: SchemaRow[];
  headers: { name: string; description?: string }[];
  examples: ExampleView[];
};

type RequestBodyView = { required: boolean; mediaTypes: string[]; schemaName?: string; rows: SchemaRow[]; examples: ExampleView[] };

export type OperationView = {
  id: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** false when the operation takes no API key (security: []). */
  needsKey: boolean;
  parameters: ParameterView[];
  requestBody?: RequestBodyView;
  responses: ResponseView[];
  /** Lower-case text the search box matches against. */
  searchText: string;
};

export type TagView = { name: string; description?: string; operations: OperationView[] };

type SchemaView = {
  name: string;
  description?: string;
  rows: SchemaRow[];
  /** A list whose items are another schema's `data` (InvoiceList's, InvoiceDocument's): named, not listed again. */
  itemsAs?: string;
};

export type ApiReference = {
  title: string;
  version: string;
  description: string;
  baseUrl: string;
  tags: TagView[];
  /** The answers' named schemas (ErrorDocument among them), each shown once and linked from the operations. */
  schemas: SchemaView[];
  operationCount: number;
};

const METHODS = ["get", "post", "put", "patch", "delete", "head", "options", "trace"] as const;
const MAX_DEPTH = 8;

const asJson = (value: unknown): Json | undefined => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined);
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? value.filter((entry): entry is Json => asJson(entry) !== undefined) : []);
const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const literal = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/** Follows a local `$ref` (#/components/…) once; anything else is returned as it is. */
function resolve(doc: Json, node: Json | undefined): Json | undefined {
  const ref = text(node?.$ref);
  if (!ref?.startsWith("#/")) return node;
  let target: unknown = doc;
  for (const part of ref.slice(2).split("/")) target = asJson(target)?.[part];
  return asJson(target);
}

const refName = (node: Json | undefined): string | undefined => text(node?.$ref)?.split("/").pop();

function variants(schema: Json): Json[] {
  return [...asArray(schema.anyOf), ...asArray(schema.oneOf)];
}

/** A short type: "string", "array of object", "integer or null", "\"payment-invoice\"" for a constant. */
export function typeLabel(schema: Json | undefined): string {
  if (!schema) return "any";
  if ("const" in schema) return `constant ${literal(schema.const)}`;
  const choices = variants(schema);
  if (choices.length > 0) return [...new Set(choices.map(typeLabel))].join(" or ");
  const type = schema.type;
  if (Array.isArray(type)) return type.join(" or ");
  if (type === "array") return `array of ${typeLabel(asJson(schema.items))}`;
  if (typeof type === "string") return type;
  if (schema.properties) return "object";
  return "any";
}

/** Limits JSON Schema states beside the type, in words. */
function constraintsOf(schema: Json): string[] {
  const out: string[] = [];
  const add = (label: string, key: string) => {
    if (schema[key] !== undefined) out.push(`${label} ${literal(schema[key])}`);
  };
  add("format", "format");
  add("pattern", "pattern");
  add("min length", "minLength");
  add("max length", "maxLength");
  add("minimum", "minimum");
  add("above", "exclusiveMinimum");
  add("maximum", "maximum");
  add("below", "exclusiveMaximum");
  add("multiple of", "multipleOf");
  add("min items", "minItems");
  add("max items", "maxItems");
  add("default", "default");
  if (Array.isArray(schema.examples) && schema.examples.length > 0) out.push(`e.g. ${schema.examples.map(literal).join(", ")}`);
  for (const choice of variants(schema)) for (const constraint of constraintsOf(choice)) if (!out.includes(constraint)) out.push(constraint);
  return out;
}

function enumOf(schema: Json): string[] | undefined {
  const values = [...(Array.isArray(schema.enum) ? schema.enum : []), ...variants(schema).flatMap((choice) => (Array.isArray(choice.enum) ? choice.enum : []))];
  return values.length > 0 ? [...new Set(values.map(literal))] : undefined;
}

/** The object schemas whose members are listed under a row: its own, its items', each object variant's. */
function memberSources(schema: Json): { label?: string; schema: Json }[] {
  if (schema.properties || asJson(schema.additionalProperties)) return [{ schema }];
  const items = asJson(schema.items);
  if (items) return memberSources(items);
  const objects = variants(schema).filter((choice) => memberSources(choice).length > 0);
  if (objects.length === 1) return memberSources(objects[0]!);
  return objects.flatMap((choice, index) => memberSources(choice).map((source) => ({ label: `one of, variant ${index + 1}`, schema: source.schema })));
}

function memberRows(schema: Json, prefix: string, depth: number, rows: SchemaRow[]): void {
  if (depth > MAX_DEPTH) return;
  for (const [index, source] of memberSources(schema).entries()) {
    let base = prefix;
    let level = depth;
    if (source.label) {
      base = `${prefix}~${index}`;
      rows.push({ key: base, name: `(${source.label})`, depth, type: typeLabel(source.schema), required: false, constraints: [] });
      level = depth + 1;
    }
    const required = new Set(Array.isArray(source.schema.required) ? source.schema.required.map(String) : []);
    for (const [name, value] of Object.entries(asJson(source.schema.properties) ?? {})) {
      const member = asJson(value) ?? {};
      const key = base ? `${base}.${name}` : name;
      rows.push({
        key,
        name,
        depth: level,
        type: typeLabel(member),
        required: required.has(name),
        description: text(member.description),
        enumValues: enumOf(member),
        constraints: constraintsOf(member),
      });
      memberRows(member, key, level + 1, rows);
    }
    const extra = asJson(source.schema.additionalProperties);
    if (extra) {
      const key = `${base}.*`;
      rows.push({
        key,
        name: "(any name)",
        depth: level,
        type: typeLabel(extra),
        required: false,
        description: text(extra.description),
        enumValues: enumOf(extra),
        constraints: constraintsOf(extra),
      });
      memberRows(extra, key, level + 1, rows);
    }
  }
}

/** A schema as table rows, nested members indented one level per depth. */
export function schemaRows(doc: Json, node: Json | undefined): SchemaRow[] {
  const schema = resolve(doc, node);
  if (!schema) return [];
  const rows: SchemaRow[] = [];
  memberRows(schema, "", 0, rows);
  return rows;
}

function examplesOf(media: Json | undefined): ExampleView[] {
  if (!media) return [];
  const named = Object.entries(asJson(media.examples) ?? {}).map(([name, value]) => {
    const example = asJson(value) ?? {};
    return { name, summary: text(example.summary), description: text(example.description), json: JSON.stringify(example.value, null, 2) };
  });
  if (named.length === 0 && media.example !== undefined)
    named.push({ name: "example", summary: undefined, description: undefined, json: JSON.stringify(media.example, null, 2) });
  return named;
}

/** The JSON:API media type's entry if there is one, else the first. */
function mainMedia(content: Json | undefined): Json | undefined {
  if (!content) return undefined;
  return asJson(content["application/vnd.api+json"]) ?? asJson(Object.values(content)[0]);
}

function parameterView(doc: Json, node: Json): ParameterView {
  const parameter = resolve(doc, node) ?? {};
  const schema = asJson(parameter.schema) ?? {};
  return {
    name: String(parameter.name),
    in: String(parameter.in),
    required: parameter.required === true,
    type: typeLabel(schema),
    description: text(parameter.description) ?? text(schema.description),
    enumValues: enumOf(schema),
    constraints: constraintsOf(schema),
  };
}

function responseView(doc: Json, status: string, node: Json): ResponseView {
  const response = resolve(doc, node) ?? {};
  const content = asJson(response.content);
  const media = mainMedia(content);
  const schemaNode = asJson(media?.schema);
  const success = /^[23]/.test(status);
  return {
    status,
    description: text(response.description) ?? "",
    success,
    schemaName: refName(schemaNode),
    mediaTypes: Object.keys(content ?? {}),
    rows: success && !refName(schemaNode) ? schemaRows(doc, schemaNode) : [],
    headers: Object.entries(asJson(response.headers) ?? {}).map(([name, header]) => ({ name, description: text(asJson(header)?.description) })),
    examples: examplesOf(media),
  };
}

function operationView(doc: Json, path: string, method: string, operation: Json, shared: Json[]): OperationView {
  const own = asArray(operation.parameters).map((parameter) => parameterView(doc, parameter));
  const inherited = shared
    .map((parameter) => parameterView(doc, parameter))
    .filter((parameter) => !own.some((mine) => mine.name === parameter.name && mine.in === parameter.in));
  const parameters = [...inherited, ...own];
  const body = resolve(doc, asJson(operation.requestBody));
  const bodyContent = asJson(body?.content);
  const bodyMedia = mainMedia(bodyContent);
  const requestBody: RequestBodyView | undefined = body
    ? {
        required: body.required === true,
        mediaTypes: Object.keys(bodyContent ?? {}),
        schemaName: refName(asJson(bodyMedia?.schema)),
        rows: schemaRows(doc, asJson(bodyMedia?.schema)),
        examples: examplesOf(bodyMedia),
      }
    : undefined;
  const responses = Object.entries(asJson(operation.responses) ?? {})
    .map(([status, response]) => responseView(doc, status, asJson(response) ?? {}))
    .sort((a, b) => a.status.localeCompare(b.status));
  const tag = Array.isArray(operation.tags) && typeof operation.tags[0] === "string" ? operation.tags[0] : "other";
  const summary = text(operation.summary) ?? `${method.toUpperCase()} ${path}`;
  const description = text(operation.description);
  const id = text(operation.operationId) ?? `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, "-");
  return {
    id,
    method: method.toUpperCase(),
    path,
    tag,
    summary,
    description,
    needsKey: !(Array.isArray(operation.security) && operation.security.length === 0),
    parameters,
    requestBody,
    responses,
    searchText: [method, path, id, tag, summary, description ?? "", ...parameters.map((parameter) => parameter.name)].join(" ").toLowerCase(),
  };
}

function answerSchemas(doc: Json, operations: OperationView[]): ApiReference["schemas"] {
  const named = new Set(
    operations.flatMap((operation) => operation.responses.map((response) => response.schemaName)).filter((name): name is string => name !== undefined),
  );
  const components = asJson(asJson(doc.components)?.schemas) ?? {};
  const schemas: SchemaView[] = Object.keys(components)
    .filter((name) => named.has(name))
    .map((name) => ({ name, description: text(asJson(components[name])?.description), rows: schemaRows(doc, asJson(components[name])) }));
  return schemas.map((schema) => withSharedItems(schema, schemas));
}

const dataMembers = (rows: SchemaRow[]) => rows.filter((row) => row.key.startsWith("data."));
const sameRows = (a: SchemaRow[], b: SchemaRow[]) => a.length === b.length && JSON.stringify(a) === JSON.stringify(b);

/**
 * A list's items that are exactly another schema's `data` are named instead of listed again: the
 * list of invoices would otherwise repeat the hundred rows of an invoice, on the same page.
 */
function withSharedItems(schema: SchemaView, schemas: SchemaView[]): SchemaView {
  const items = dataMembers(schema.rows);
  if (items.length === 0 || !schema.rows.find((row) => row.key === "data")?.type.startsWith("array")) return schema;
  const same = schemas.find(
    (other) => other !== schema && !other.rows.find((row) => row.key === "data")?.type.startsWith("array") && sameRows(dataMembers(other.rows), items),
  );
  return same ? { ...schema, rows: schema.rows.filter((row) => !row.key.startsWith("data.")), itemsAs: same.name } : schema;
}

/** The document as the reference page shows it. */
export function buildApiReference(doc: Json): ApiReference {
  const info = asJson(doc.info) ?? {};
  const operations: OperationView[] = [];
  for (const [path, value] of Object.entries(asJson(doc.paths) ?? {})) {
    const item = asJson(value) ?? {};
    const shared = asArray(item.parameters);
    // In the document's order (a collection's create before its list, as written).
    for (const [method, operation] of Object.entries(item)) {
      if ((METHODS as readonly string[]).includes(method) && asJson(operation)) operations.push(operationView(doc, path, method, asJson(operation)!, shared));
    }
  }
  const declared = asArray(doc.tags).map((tag) => ({ name: String(tag.name), description: text(tag.description) }));
  for (const operation of operations) if (!declared.some((tag) => tag.name === operation.tag)) declared.push({ name: operation.tag, description: undefined });
  const tags = declared
    .map((tag) => ({ ...tag, operations: operations.filter((operation) => operation.tag === tag.name) }))
    .filter((tag) => tag.operations.length > 0);
  return {
    title: text(info.title) ?? "API",
    version: text(info.version) ?? "",
    description: text(info.description) ?? "",
    baseUrl: text(asJson(asArray(doc.servers)[0])?.url) ?? "",
    tags,
    schemas: answerSchemas(doc, operations),
    operationCount: operations.length,
  };
}

/** Whether an operation matches the search text: every word of it appears in the operation's text. */
export function matchesSearch(operation: Pick<OperationView, "searchText">, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return words.every((word) => operation.searchText.includes(word));
}

/** The tag's page: /docs/api/<tag>. Tags are names in the document (payments, payment-methods…). */
export const tagHref = (tag: string) => `/docs/api/${encodeURIComponent(tag)}`;

/** Where an operation is shown: its tag's page, at its operationId. */
export const operationHref = (operation: Pick<OperationView, "id" | "tag">) => `${tagHref(operation.tag)}#${encodeURIComponent(operation.id)}`;

/** A tag's name as a title: "payment-methods" → "Payment methods". */
export const tagTitle = (tag: string) => (tag.charAt(0).toUpperCase() + tag.slice(1)).replace(/-/g, " ");

export function findTag(reference: ApiReference, name: string): TagView | undefined {
  return reference.tags.find((tag) => tag.name === name);
}

/** The operations of every tag matching the query, in the reference's order. */
export function searchOperations(reference: ApiReference, query: string): OperationView[] {
  return reference.tags.flatMap((tag) => tag.operations).filter((operation) => matchesSearch(operation, query));
}

/** The answer schemas a tag's operations name, in the reference's order (each tag page shows its own). */
export function schemasOfTag(reference: ApiReference, tag: TagView): ApiReference["schemas"] {
  const named = new Set(tag.operations.flatMap((operation) => operation.responses.map((response) => response.schemaName)));
  // A list names the schema its items share: that one is shown too.
  for (const schema of reference.schemas) if (named.has(schema.name) && schema.itemsAs) named.add(schema.itemsAs);
  return reference.schemas.filter((schema) => named.has(schema.name));
}

/**
 * Where the anchors of the single-page reference went: an operationId, `tag-<name>` and
 * `schema-<name>` → the tag page showing it (a schema: the first tag whose operations answer with
 * it). Read by the index's redirect of old links (/docs/api#createRefund).
 */
export function anchorTargets(reference: ApiReference): Record<string, string> {
  const targets: Record<string, string> = {};
  for (const tag of reference.tags) {
    targets[`tag-${tag.name}`] = tagHref(tag.name);
    for (const operation of tag.operations) targets[operation.id] = operationHref(operation);
    for (const schema of schemasOfTag(reference, tag)) targets[`schema-${schema.name}`] ??= `${tagHref(tag.name)}#schema-${encodeURIComponent(schema.name)}`;
  }
  return targets;
}

/** References built so far, by base URL, commerce account and the saved card the examples name (the only inputs that differ). */
const built = new Map<string, ApiReference>();
const BUILT_MAX = 64;

/**
 * The reference for one merchant's examples, built once per base URL, commerce account and named
 * saved card (`paymentMethodId`, empty for the stand-in) (about
 * 40 ms of the page's server time each) and kept for the next view; the least recently used
 * goes past BUILT_MAX.
 */
export function apiReferenceFor(baseUrl: string, commerceAccount: string, build: () => Json, paymentMethodId = ""): ApiReference {
  const key = `${baseUrl}\u0000${commerceAccount}\u0000${paymentMethodId}`;
  let reference = built.get(key);
  if (reference) built.delete(key);
  else reference = buildApiReference(build());
  built.set(key, reference);
  if (built.size > BUILT_MAX) built.delete(built.keys().next().value!);
  return reference;
}
