import { describe, expect, it } from "vitest";
import { listCustomerFields } from "./customer-fields";

describe("listCustomerFields", () => {
  const resolved = { name: "Shop Name", address: { city: "London" }, language: "de", tags: ["a"] };

  it("names each value by its spec path with the source recorded at creation, sorted by path", () => {
    const fields = listCustomerFields(resolved, {
      "customer.name": { source: "constant", constant: "NAME" },
      "customer.address.city": { source: "default" },
      language: { source: "request" },
      "customer.tags": { source: "request" },
    });
    expect(fields).toEqual([
      { path: "customer.address.city", value: "London", source: "default" },
      { path: "customer.name", value: "Shop Name", source: "constant", constant: "NAME" },
      { path: "customer.tags", value: ["a"], source: "request" },
      { path: "language", value: "de", source: "request" },
    ]);
  });

  it("shows values without a source for invoices from before sources were recorded", () => {
    expect(listCustomerFields({ name: "Ada", address: { city: "London" } }, null)).toEqual([
      { path: "customer.address.city", value: "London", source: null },
      { path: "customer.name", value: "Ada", source: null },
    ]);
    expect(listCustomerFields({}, null)).toEqual([]);
  });

  it("keeps a nested key named customer inside the customer and reads only recorded own members", () => {
    const sources = JSON.parse('{"customer.customer.id":{"source":"request"},"customer.__proto__":{"source":"request"}}') as Parameters<
      typeof listCustomerFields
    >[1];
    const customer = JSON.parse('{"customer":{"id":7},"__proto__":"x","constructor":"y"}') as Record<string, unknown>;
    expect(listCustomerFields(customer, sources)).toEqual([
      { path: "customer.__proto__", value: "x", source: "request" },
      { path: "customer.constructor", value: "y", source: null },
      { path: "customer.customer.id", value: 7, source: "request" },
    ]);
  });
});
