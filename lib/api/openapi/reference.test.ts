import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./document";
import {
  anchorTargets,
  buildApiReference,
  findTag,
  matchesSearch,
  operationHref,
  schemaRows,
  schemasOfTag,
  searchOperations,
  tagTitle,
  typeLabel,
} from "./reference";

const doc = buildOpenApiDocument({ baseUrl: "https://pay.example.com/", commerceAccount: "shop-42" });
const reference = buildApiReference(doc);
const operations = reference.tags.flatMap((tag) => tag.operations);
const byId = (id: string) => operations.find((operation) => operation.id === id)!;

describe("buildApiReference", () => {
  it("lists every operation of the document once, under its tag, by operationId", () => {
    const paths = doc.paths as Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    const expected = Object.values(paths).flatMap((item) => Object.values(item).filter((value) => typeof value?.operationId === "string"));
    expect(operations.map((operation) => operation.id).sort()).toEqual(expected.map((operation) => operation.operationId).sort());
    expect(reference.operationCount).toBe(expected.length);
    for (const tag of reference.tags) for (const operation of tag.operations) expect(operation.tag).toBe(tag.name);
    expect(reference.tags.map((tag) => tag.name)).toEqual([
      "payments",
      "payouts",
      "refunds",
      "payment-methods",
      "disputes",
      "files",
      "connections",
      "routing",
      "providers",
      "risk",
    ]);
    expect(reference.baseUrl).toBe("https://pay.example.com");
  });

  it("flattens a request body into indented rows, required marked, enums and limits listed", () => {
    const create = byId("createPaymentInvoice");
    expect(create.method).toBe("POST");
    expect(create.path).toBe("/api/commerce/payment-invoices");
    const rows = create.requestBody!.rows;
    const amount = rows.find((row) => row.key === "data.attributes.amount")!;
    expect(amount).toMatchObject({ depth: 2, required: true, type: "number or string" });
    expect(amount.constraints).toContain("multiple of 0.01");
    expect(rows.find((row) => row.key === "data.attributes.service")!.enumValues).toContain("payment_card_eur_hpp");
    expect(rows.find((row) => row.key === "data.attributes.test_mode")).toMatchObject({ required: false, type: "boolean" });
    expect(rows.find((row) => row.key === "data.type")!.type).toBe("constant payment-invoice");
  });

  it("carries the examples written for the merchant, and every operation with a body has one", () => {
    const example = byId("createPaymentInvoice").requestBody!.examples[0]!;
    expect(JSON.parse(example.json).data.attributes.commerce_account).toBe("shop-42");
    for (const operation of operations) if (operation.requestBody) expect(operation.requestBody.examples.length, operation.id).toBeGreaterThan(0);
  });

  it("resolves shared error answers and path item parameters, and names answer schemas once", () => {
    const edit = byId("editConnection");
    expect(edit.parameters.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(["path:id"]);
    const unauthorized = edit.responses.find((response) => response.status === "401")!;
    expect(unauthorized).toMatchObject({ success: false, schemaName: "ErrorDocument" });
    expect(unauthorized.description).toContain("invalid_api_key");
    expect(edit.responses.find((response) => response.status === "200")!.schemaName).toBe("ConnectionDocument");
    const names = reference.schemas.map((schema) => schema.name);
    expect(names).toContain("ErrorDocument");
    expect(names).toContain("InvoiceDocument");
    expect(new Set(names).size).toBe(names.length);
    expect(byId("listProviders").needsKey).toBe(false);
    expect(byId("listConnections").needsKey).toBe(true);
  });
});

describe("schema helpers", () => {
  it("names types in words", () => {
    expect(typeLabel({ type: "array", items: { type: "string" } })).toBe("array of string");
    expect(typeLabel({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string or null");
    expect(typeLabel(undefined)).toBe("any");
  });

  it("lists the members of an array's items and of each object variant", () => {
    const rows = schemaRows(
      {},
      { type: "object", required: ["list"], properties: { list: { type: "array", items: { type: "object", properties: { id: { type: "string" } } } } } },
    );
    expect(rows.map((row) => [row.key, row.depth, row.required])).toEqual([
      ["list", 0, true],
      ["list.id", 1, false],
    ]);
  });
});

describe("matchesSearch", () => {
  it("matches every word of the query anywhere in the operation's text, case ignored", () => {
    expect(matchesSearch(byId("createRefund"), "REFUND post")).toBe(true);
    expect(matchesSearch(byId("createRefund"), "refund delete")).toBe(false);
    expect(matchesSearch(byId("simulateRouting"), "/api/routing/simulate")).toBe(true);
    expect(matchesSearch(byId("simulateRouting"), "  ")).toBe(true);
  });
});

describe("the reference's pages", () => {
  it("puts each operation on its tag's page, and names the tag as a title", () => {
    expect(operationHref(byId("createRefund"))).toBe("/docs/api/payments#createRefund");
    expect(operationHref(byId("listPaymentMethods"))).toBe("/docs/api/payment-methods#listPaymentMethods");
    expect(tagTitle("payment-methods")).toBe("Payment methods");
    expect(findTag(reference, "routing")!.operations.map((operation) => operation.id)).toContain("simulateRouting");
    expect(findTag(reference, "nothing")).toBeUndefined();
  });

  it("searches every tag at once, and finds nothing for a word no operation has", () => {
    const found = searchOperations(reference, "refund");
    expect(found.map((operation) => operation.id)).toEqual(expect.arrayContaining(["createRefund", "getRefund", "listPaymentInvoiceRefunds"]));
    expect(new Set(found.map((operation) => operation.tag)).size).toBeGreaterThan(1);
    expect(searchOperations(reference, "zebra")).toEqual([]);
  });

  it("shows on a tag's page the answer schemas its operations name, ErrorDocument on every one", () => {
    for (const tag of reference.tags) {
      const names = schemasOfTag(reference, tag).map((schema) => schema.name);
      expect(names, tag.name).toContain("ErrorDocument");
      for (const operation of tag.operations)
        for (const response of operation.responses) if (response.schemaName) expect(names, operation.id).toContain(response.schemaName);
    }
  });

  it("names the schema a list's items share instead of listing its members again, and shows it beside the list", () => {
    const list = reference.schemas.find((schema) => schema.name === "InvoiceList")!;
    const document = reference.schemas.find((schema) => schema.name === "InvoiceDocument")!;
    expect(list.itemsAs).toBe("InvoiceDocument");
    expect(list.rows.some((row) => row.key.startsWith("data."))).toBe(false);
    expect(list.rows.find((row) => row.key === "data")!.type).toBe("array of object");
    expect(document.itemsAs).toBeUndefined();
    expect(document.rows.find((row) => row.key === "data.attributes.amount")).toBeDefined();
    // The refunds page lists no refunds, yet RefundDocument is there for getRefund; the payments page shows RefundList with it.
    const payments = schemasOfTag(reference, findTag(reference, "payments")!).map((schema) => schema.name);
    expect(payments).toEqual(expect.arrayContaining(["InvoiceList", "InvoiceDocument", "RefundList", "RefundDocument"]));
  });

  it("sends every anchor of the old single page to the page that shows it", () => {
    const targets = anchorTargets(reference);
    for (const operation of operations) expect(targets[operation.id]).toBe(operationHref(operation));
    expect(targets["tag-routing"]).toBe("/docs/api/routing");
    expect(targets["schema-InvoiceDocument"]).toBe("/docs/api/payments#schema-InvoiceDocument");
    for (const schema of reference.schemas) expect(targets[`schema-${schema.name}`], schema.name).toBeDefined();
    expect(targets.authentication).toBeUndefined();
  });
});
