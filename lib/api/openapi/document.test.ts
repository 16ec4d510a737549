import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./document";

const doc = buildOpenApiDocument({ baseUrl: "https://pay.example.test/" });

/** Reads a nested member of the generated document; undefined when any step is missing. */
function pick(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const keysOf = (value: unknown): string[] => Object.keys((value ?? {}) as object);

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => collectRefs(item, out));
  else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") out.push(child);
      else collectRefs(child, out);
    }
  }
  return out;
}

const requestAttributes = (name: string) => pick(doc, "components", "schemas", name, "properties", "data", "properties", "attributes");

describe("buildOpenApiDocument", () => {
  it("is JSON-serialisable without loss", () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://pay.example.test" }]);
  });

  it("has both create operations and the bearer scheme", () => {
    expect(pick(doc, "paths", "/api/commerce/payment-invoices", "post", "operationId")).toBe("createPaymentInvoice");
    expect(pick(doc, "paths", "/api/commerce/payout-invoices", "post", "operationId")).toBe("createPayoutInvoice");
    expect(pick(doc, "components", "securitySchemes", "bearerAuth")).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it.each(["PaymentInvoiceRequest", "PayoutInvoiceRequest"])("%s limits reference_id to 255", (name) => {
    const attributes = requestAttributes(name);
    expect(pick(attributes, "properties", "reference_id")).toMatchObject({ type: "string", maxLength: 255 });
    expect(pick(attributes, "additionalProperties")).toBe(false);
    expect(pick(attributes, "required")).toEqual(expect.arrayContaining(["service", "currency", "amount", "reference_id"]));
  });

  it("describes the payout card number as the client sends it", () => {
    const cardNumber = pick(requestAttributes("PayoutInvoiceRequest"), "properties", "fields", "properties", "card_number");
    expect(pick(cardNumber, "type")).toBe("string");
    expect(String(pick(cardNumber, "description"))).toMatch(/full number .* or a masked number \(digits and \*/);
  });

  it("groups every operation under a declared tag, and names no spec section in what readers see", () => {
    const declared = (doc.tags as { name: string }[]).map((tag) => tag.name);
    expect(declared).toEqual(["payments", "payouts", "refunds", "payment-methods", "disputes", "files", "connections", "routing", "providers", "risk"]);
    const methods = new Set(["get", "post", "patch", "put", "delete"]);
    for (const item of Object.values(doc.paths as Record<string, Record<string, { tags?: string[] }>>)) {
      for (const [method, operation] of Object.entries(item)) if (methods.has(method)) expect(declared).toContain(operation.tags?.[0]);
    }
    expect(JSON.stringify(doc)).not.toMatch(/\(spec \d|spec \d+\.\d/);
  });

  it("resolves every $ref", () => {
    for (const ref of collectRefs(doc)) {
      const [, section = "", name = ""] = /^#\/components\/(\w+)\/(\w+)$/.exec(ref) ?? [];
      expect(pick(doc, "components", section, name), ref).toBeTruthy();
    }
  });

  it("documents list filters and pagination", () => {
    const parameters = pick(doc, "paths", "/api/commerce/payout-invoices", "get", "parameters") as unknown[];
    expect(parameters.map((parameter) => pick(parameter, "name"))).toEqual([
      "filter[reference_id]",
      "filter[status]",
      "filter[created_from]",
      "filter[created_to]",
      "page[size]",
      "page[after]",
    ]);
  });

  it("lists the reference's status codes", () => {
    const post = keysOf(pick(doc, "paths", "/api/commerce/payment-invoices", "post", "responses"));
    const get = keysOf(pick(doc, "paths", "/api/commerce/payment-invoices/{id}", "get", "responses"));
    expect(new Set([...post, ...get])).toEqual(new Set(["200", "201", "400", "401", "403", "404", "406", "409", "413", "415", "422", "429", "500"]));
    expect(pick(doc, "components", "responses", "TooManyRequests", "headers", "Retry-After")).toBeDefined();
    for (const [name, response] of Object.entries(pick(doc, "components", "responses") as Record<string, unknown>)) {
      expect(pick(response, "headers", "X-Request-Id", "required"), name).toBe(true);
    }
  });

  it("describes the management API too, the providers registry without a key", () => {
    expect(keysOf(doc.paths)).toEqual(
      expect.arrayContaining(["/api/connections", "/api/connections/{id}", "/api/routing", "/api/routing/{id}", "/api/providers"]),
    );
    expect(pick(doc, "paths", "/api/providers", "get", "security")).toEqual([]);
    expect(pick(doc, "paths", "/api/connections", "post", "responses", "201", "headers", "Location", "required")).toBe(true);
  });

  it("documents negotiation, rate limit and failure answers on every operation", () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === "parameters") continue;
        const statuses = keysOf(pick(operation, "responses"));
        expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(["400", "406", "415", "429", "500"]));
      }
    }
  });

  it("offers the registry's services as the enum of service", () => {
    const service = pick(requestAttributes("PayoutInvoiceRequest"), "properties", "service", "enum") as string[];
    expect(service).toContain("payment_card_uah");
    expect(service).not.toContain("payment_card_eur_hpp");
  });

  it("returns invoices with the agreed attributes", () => {
    const attributes = pick(doc, "components", "schemas", "InvoiceDocument", "properties", "data", "properties", "attributes", "properties");
    expect(keysOf(attributes)).toEqual(
      expect.arrayContaining([
        "status",
        "resolution",
        "amount",
        "currency",
        "service",
        "reference_id",
        "test_mode",
        "flow",
        "options",
        "customer",
        "resolved_customer",
        "resolved_customer_sources",
        "hpp_url",
        "created",
        "updated",
      ]),
    );
    expect(pick(attributes, "resolved_customer_sources", "anyOf", "0", "additionalProperties", "properties", "source", "enum")).toEqual([
      "request",
      "constant",
      "default",
    ]);
  });
});

describe("request examples", () => {
  const mine = buildOpenApiDocument({ baseUrl: "https://pay.example.test/", commerceAccount: "acct-shop-7" });
  const examplesOf = (path: string) =>
    pick(mine, "paths", path, "post", "requestBody", "content", "application/vnd.api+json", "examples") as Record<string, { value: unknown }>;

  it("gives every create operation each provider's example invoices, written for the merchant and accepted by the API's own validation", async () => {
    const { validateInvoice } = await import("@/lib/invoices/contract/validate-invoice");
    const { listTemplates } = await import("@/lib/composer/templates");
    for (const [direction, path] of [
      ["payment", "/api/commerce/payment-invoices"],
      ["payout", "/api/commerce/payout-invoices"],
    ] as const) {
      const examples = examplesOf(path);
      // Each provider's template, and for payments the three that show what a provider can do beyond a sale.
      const beyondSale = direction === "payment" ? ["authorize-only", "save-card", "saved-card-charge"] : [];
      expect(Object.keys(examples).sort()).toEqual(
        [
          ...listTemplates()
            .filter((t) => t.direction === direction)
            .map((t) => t.id),
          ...beyondSale,
        ].sort(),
      );
      for (const [id, example] of Object.entries(examples)) {
        expect(pick(example.value, "data", "attributes", "commerce_account"), id).toBe("acct-shop-7");
        expect(validateInvoice(direction, example.value), id).toMatchObject({ ok: true });
      }
    }
    // The public document names no merchant.
    expect(
      pick(
        doc,
        "paths",
        "/api/commerce/payment-invoices",
        "post",
        "requestBody",
        "content",
        "application/json",
        "examples",
        "b-payment",
        "value",
        "data",
        "attributes",
        "commerce_account",
      ),
    ).toBe("your-commerce-account");
  });

  it("gives the refund create examples its own schema accepts", async () => {
    const { refundRequestSchema } = await import("@/lib/refunds/contract");
    const examples = examplesOf("/api/commerce/payment-invoices/{id}/refunds");
    expect(Object.keys(examples).length).toBeGreaterThan(0);
    for (const [id, example] of Object.entries(examples)) expect(refundRequestSchema.safeParse(example.value).success, id).toBe(true);
  });
});

describe("dispute examples", () => {
  it("gives the evidence draft examples its own schema accepts, and the upload a multipart example", async () => {
    const { disputeEvidenceRequestSchema } = await import("@/lib/disputes/contract");
    const evidence = pick(
      doc,
      "paths",
      "/api/commerce/disputes/{id}/evidence",
      "post",
      "requestBody",
      "content",
      "application/vnd.api+json",
      "examples",
    ) as Record<string, { value: unknown }>;
    expect(Object.keys(evidence).length).toBeGreaterThan(0);
    for (const [id, example] of Object.entries(evidence)) expect(disputeEvidenceRequestSchema.safeParse(example.value).success, id).toBe(true);
    const upload = pick(doc, "paths", "/api/commerce/files", "post", "requestBody", "content", "multipart/form-data") as Record<string, unknown>;
    expect(Object.keys(upload.examples as Record<string, unknown>).length).toBeGreaterThan(0);
    expect(pick(upload, "schema", "required")).toEqual(["purpose", "file"]);
  });
});

describe("routing versions", () => {
  const operation = (path: string, method: string) => pick(doc, "paths", path, method) as Record<string, unknown>;

  it("documents the history, one version, the comparison and the rollback, with examples their own schemas accept", async () => {
    const schemas = await import("@/lib/api/management-schemas");
    const example = (path: string, method: string, status: string) =>
      Object.values(
        pick(operation(path, method), "responses", status, "content", "application/vnd.api+json", "examples") as Record<string, { value: unknown }>,
      )[0]!.value;
    expect(schemas.routingVersionListSchema.safeParse(example("/api/routing/{id}/versions", "get", "200")).success).toBe(true);
    expect(schemas.routingVersionDocumentSchema.safeParse(example("/api/routing/{id}/versions/{version}", "get", "200")).success).toBe(true);
    const comparison = example("/api/routing/{id}/compare", "get", "200");
    expect(schemas.routingComparisonDocumentSchema.safeParse(comparison).success).toBe(true);
    expect(pick(comparison, "data", "attributes", "changes", "0", "sentence")).toBe(
      "Rule 1 “Big French” removed (When amount at least 100.00 EUR, customer in FR → Provider F).",
    );
    const rollback = pick(
      operation("/api/routing/{id}/rollback", "post"),
      "requestBody",
      "content",
      "application/vnd.api+json",
      "examples",
      "version",
      "value",
    );
    expect(schemas.routingRollbackRequestSchema.safeParse(rollback).success).toBe(true);
    expect(keysOf(pick(operation("/api/routing/{id}/rollback", "post"), "responses"))).toEqual(expect.arrayContaining(["200", "403", "404", "422"]));
    expect(pick(operation("/api/routing/{id}/compare", "get"), "parameters")).toEqual([
      expect.objectContaining({ name: "from" }),
      expect.objectContaining({ name: "to" }),
    ]);
  });
});
