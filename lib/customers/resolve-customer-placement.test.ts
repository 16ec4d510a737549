import { describe, expect, it } from "vitest";
import { toJsonPointer } from "@/lib/problems";
import { resolveCustomer, type ResolveResult } from "./resolve-customer";
import { envelope, PROVIDER_A_CONSTANTS } from "@/tests/fixtures/customers";

function resolved(result: ResolveResult) {
  if (!result.ok) throw new Error(`unexpected errors: ${JSON.stringify(result.problems)}`);
  return result;
}

describe("customer placement", () => {
  const customer = { reference_id: 42, name: "Ada", address: { city: "Kyiv" }, email: "" };
  const datas = {
    attributes: { attributes: { customer } },
    data: { customer, attributes: {} },
    gateway_options: { attributes: { gateway_options: { cardgate: { tokenize: "" }, customer } } },
  } as const;

  it("gives identical output for all three placements", () => {
    const results = Object.entries(datas).map(([placement, data]) => {
      const result = resolved(resolveCustomer({ data, constants: { COUNTRY: "UA", CITY: "Lviv" }, constantSpecs: PROVIDER_A_CONSTANTS }));
      expect(result.placement).toBe(placement);
      return { customer: result.customer, fields: result.fields };
    });
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(results[0]?.customer).toEqual({ reference_id: 42, name: "Ada", address: { city: "Kyiv", country: "UA" } });
    expect(results[0]?.fields).toEqual([
      { path: "customer.address.city", value: "Kyiv", source: "request" },
      { path: "customer.address.country", value: "UA", source: "constant", constant: "COUNTRY" },
      { path: "customer.name", value: "Ada", source: "request" },
      { path: "customer.reference_id", value: 42, source: "request" },
    ]);
  });

  it("rejects a customer in two places with one error per extra placement", () => {
    const data = { customer: {}, attributes: { customer, gateway_options: { customer: { name: "Ada" } } } };
    const result = resolveCustomer({ data, constants: {}, constantSpecs: PROVIDER_A_CONSTANTS });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map(({ code, path }) => ({ code, pointer: toJsonPointer(path) }))).toEqual([
      { code: "customer_conflict", pointer: "/data/customer" },
      { code: "customer_conflict", pointer: "/data/attributes/gateway_options/customer" },
    ]);
    expect(result.problems[0]?.message).toContain("/data/attributes/customer");
  });

  it("ignores null placements", () => {
    const data = { customer: null, attributes: { customer: { name: "Ada" }, gateway_options: { customer: null } } };
    const result = resolved(resolveCustomer({ data, constants: {}, constantSpecs: PROVIDER_A_CONSTANTS }));
    expect(result.placement).toBe("attributes");
  });

  it.each([["a string"], [[{ name: "Ada" }]], [5]])("rejects a customer that is not an object: %j", (value) => {
    const result = resolveCustomer({ data: { customer: value, attributes: {} }, constants: {}, constantSpecs: [] });
    expect(result).toEqual({
      ok: false,
      problems: [{ code: "customer_invalid", message: "customer must be an object", path: ["data", "customer"] }],
    });
  });
});

describe("request values", () => {
  it("keeps fields no constant covers, values as sent, and drops blanks", () => {
    const sent = { reference_id: "a1b2", name: " Ada ", phone: "", extra: { tags: ["x", ""], note: null }, address: {} };
    const result = resolved(resolveCustomer({ data: envelope(sent), constants: {}, constantSpecs: PROVIDER_A_CONSTANTS }));
    expect(result.customer).toEqual({ reference_id: "a1b2", name: " Ada ", extra: { tags: ["x", ""] } });
    expect(sent.phone).toBe("");
  });

  it("does not let a constant break into a non-object the request sent", () => {
    const data = envelope({ address: "1 Main St, Kyiv" });
    const result = resolved(resolveCustomer({ data, constants: { CITY: "Lviv" }, constantSpecs: PROVIDER_A_CONSTANTS }));
    expect(result.customer).toEqual({ address: "1 Main St, Kyiv" });
  });

  it("keeps a __proto__ key as plain data without touching prototypes", () => {
    const data = JSON.parse('{"attributes":{"customer":{"__proto__":{"polluted":true},"name":"Ada"}}}') as unknown;
    const result = resolved(resolveCustomer({ data, constants: {}, constantSpecs: PROVIDER_A_CONSTANTS }));
    expect(Object.getPrototypeOf(result.customer)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result.fields.map((field) => field.path)).toEqual(["customer.__proto__.polluted", "customer.name"]);
  });

  it.each([[undefined], [null], ["x"], [{ attributes: "x" }]])("treats a malformed envelope %j as empty", (data) => {
    const result = resolved(resolveCustomer({ data, constants: { NAME: "Ada" }, constantSpecs: PROVIDER_A_CONSTANTS }));
    expect(result.customer).toEqual({ name: "Ada" });
  });
});
