import { describe, expect, it } from "vitest";
import { toJsonPointer } from "@/lib/problems";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { paymentInvoiceEnvelopeSchema, pinnedConnectionId } from "./schemas";
import { validateInvoice } from "./validate-invoice";
import { paymentWith, payoutExample } from "@/tests/fixtures/invoices";

/** An invoice may pin its connection with JSON:API's to-one relationship. */
const withPin = (body: { data: object }, relationships: unknown) => ({ ...body, data: { ...body.data, relationships } });
const pin = (id: string) => ({ connection: { data: { type: "connection", id } } });

describe("the connection pin (data.relationships.connection)", () => {
  it("is accepted on payments and payouts and read back by pinnedConnectionId", () => {
    const payment = validateInvoice("payment", withPin(paymentWith({}), pin("conn_abc")));
    expect(payment.ok && pinnedConnectionId(payment.value)).toBe("conn_abc");
    const payout = validateInvoice("payout", withPin(payoutExample(), pin("conn_xyz")));
    expect(payout.ok && pinnedConnectionId(payout.value)).toBe("conn_xyz");
  });

  it("is optional, and a null relationship pins nothing", () => {
    const none = paymentInvoiceEnvelopeSchema.parse(paymentWith({}));
    expect(pinnedConnectionId(none)).toBeUndefined();
    const nullPin = paymentInvoiceEnvelopeSchema.parse(withPin(paymentWith({}), { connection: { data: null } }));
    expect(pinnedConnectionId(nullPin)).toBeUndefined();
  });

  it.each([
    [{ connection: { data: { type: "connections", id: "conn_a" } } }, [["/data/relationships/connection/data/type", "invalid_value"]]],
    [{ connection: { data: { type: "connection", id: "" } } }, [["/data/relationships/connection/data/id", "too_short"]]],
    [{ connection: { data: { type: "connection" } } }, [["/data/relationships/connection/data/id", "required"]]],
    [{ connection: { data: { type: "connection", id: "conn_a", extra: 1 } } }, [["/data/relationships/connection/data/extra", "unknown_attribute"]]],
    [{ connection: { data: { type: "connection", id: 7 } } }, [["/data/relationships/connection/data/id", "invalid_type"]]],
    // connection is optional beside payment_method (a saved card): the misspelt member alone is named.
    [{ conection: { data: null } }, [["/data/relationships/conection", "unknown_attribute"]]],
  ])("refuses %j at its pointer", (relationships, expected) => {
    const result = validateInvoice("payment", withPin(paymentWith({}), relationships));
    const found = result.ok ? [] : result.problems.map((p) => [toJsonPointer(p.path), p.code]);
    expect(found.sort()).toEqual([...expected].sort());
  });

  it("is documented in the OpenAPI request bodies, with the pin rules and the routing reason of the resource", () => {
    const doc = buildOpenApiDocument({ baseUrl: "https://pay.example.test" }) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const name of ["PaymentInvoiceRequest", "PayoutInvoiceRequest"]) {
      const relationships = doc.components.schemas[name].properties.data.properties.relationships;
      expect(relationships.description).toMatch(/live_pin_not_allowed/);
      expect(relationships.description).toMatch(/never cascades/);
      expect(relationships.properties.connection.properties.data.anyOf[0].properties.type).toMatchObject({ const: "connection" });
    }
    const attributes = doc.components.schemas.InvoiceDocument.properties.data.properties.attributes.properties;
    expect(attributes.routing.anyOf[0].properties.reason.enum).toEqual(["pinned", "routing_order", "cascaded"]);
    expect(doc.components.responses.UnprocessableEntity.description).toMatch(/connection_disabled/);
  });
});
