import { describe, expect, it } from "vitest";
import type { ConstantSpec } from "@/lib/providers/types";
import { getPath } from "./object-paths";
import { resolveCustomer, type ResolveResult } from "./resolve-customer";
import { envelope, PROVIDER_A_CONSTANTS, PROVIDER_B_CONSTANTS, PROVIDER_B_DEFAULTS, PROVIDER_F_CONSTANTS, SAMPLE_VALUES } from "@/tests/fixtures/customers";

function resolved(result: ResolveResult) {
  if (!result.ok) throw new Error(`unexpected errors: ${JSON.stringify(result.problems)}`);
  return result;
}

/** Where a target sits inside the resolved customer object. */
function segmentsOf(target: string): string[] {
  return target.replace(/^customer\./, "").split(".");
}

/** Puts a request value where the request would carry it for this target. */
function requestFor(target: string, value: string) {
  if (!target.startsWith("customer.")) return envelope(undefined, { [target]: value });
  const customer: Record<string, unknown> = {};
  let current = customer;
  const segments = segmentsOf(target);
  segments.slice(0, -1).forEach((segment) => {
    current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  });
  current[segments.at(-1) ?? ""] = value;
  return envelope(customer);
}

const providers: readonly [string, readonly ConstantSpec[]][] = [
  ["A", PROVIDER_A_CONSTANTS],
  ["B", PROVIDER_B_CONSTANTS],
  ["F", PROVIDER_F_CONSTANTS],
];

describe.each(providers)("Provider %s constants", (_provider, specs) => {
  const cases = specs.map((spec) => [spec.name, spec.target, spec] as const);

  it.each(cases)("%s fills %s when the request lacks it", (name, target) => {
    const value = SAMPLE_VALUES[name] ?? "";
    const result = resolved(resolveCustomer({ data: envelope({}), constants: { [name]: value }, constantSpecs: specs }));
    expect(getPath(result.customer, segmentsOf(target))).toBe(value);
    expect(result.fields).toEqual([{ path: target, value, source: "constant", constant: name }]);
  });

  it.each(cases)("%s yields to the request's %s", (name, target) => {
    const result = resolved(resolveCustomer({ data: requestFor(target, "sent"), constants: { [name]: SAMPLE_VALUES[name] }, constantSpecs: specs }));
    expect(getPath(result.customer, segmentsOf(target))).toBe("sent");
    expect(result.fields).toEqual([{ path: target, value: "sent", source: "request" }]);
  });

  it.each(cases)("%s fills %s when the request sends it empty", (name, target) => {
    const value = SAMPLE_VALUES[name] ?? "";
    for (const blank of ["", "   "]) {
      const result = resolved(resolveCustomer({ data: requestFor(target, blank), constants: { [name]: value }, constantSpecs: specs }));
      expect(getPath(result.customer, segmentsOf(target))).toBe(value);
    }
  });

  it("fills every constant at once, in its exact spec position", () => {
    const constants = Object.fromEntries(specs.map(({ name }) => [name, SAMPLE_VALUES[name]]));
    const result = resolved(resolveCustomer({ data: envelope(undefined), constants, constantSpecs: specs }));
    expect(result.placement).toBeNull();
    expect(result.fields.map((field) => field.path)).toEqual(specs.map((spec) => spec.target).sort());
  });
});

describe("Provider F nested targets", () => {
  it("places names, e-mail and phone under address and the phone code under constants", () => {
    const constants = Object.fromEntries(PROVIDER_F_CONSTANTS.map(({ name }) => [name, SAMPLE_VALUES[name]]));
    const result = resolved(resolveCustomer({ data: envelope({}), constants, constantSpecs: PROVIDER_F_CONSTANTS }));
    expect(result.customer).toEqual({
      address: {
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada@example.com",
        country: "DE",
        city: "Berlin",
        region: "Brandenburg",
        full_address: "1 Main St, Berlin",
        post_code: "10115",
        phone: "+4930123456",
      },
      date_of_birth: "1990-04-21",
      constants: { customer_country_phone_code: "+49" },
    });
  });
});

describe("Provider B defaults", () => {
  const base = { constantSpecs: PROVIDER_B_CONSTANTS, defaults: PROVIDER_B_DEFAULTS };
  const cases = Object.entries(PROVIDER_B_DEFAULTS);

  it.each(cases)("%s defaults to %j when request and constant lack it", (path, value) => {
    const result = resolved(resolveCustomer({ ...base, data: envelope({ reference_id: 7 }), constants: { CITY: "" } }));
    expect(result.fields).toContainEqual({ path, value, source: "default" });
    expect(getPath(result.customer, segmentsOf(path))).toBe(value);
  });

  it.each(cases)("a constant beats the default for %s", (path) => {
    const spec = PROVIDER_B_CONSTANTS.find((entry) => entry.target === path);
    expect(spec).toBeDefined();
    const value = SAMPLE_VALUES[spec?.name ?? ""] ?? "";
    const constants = { [spec?.name ?? ""]: value };
    const result = resolved(resolveCustomer({ ...base, data: envelope({}), constants }));
    expect(result.fields).toContainEqual({ path, value, source: "constant", constant: spec?.name });
  });

  it("gives language en, London, GB and Northeast with nothing else set", () => {
    const result = resolved(resolveCustomer({ ...base, data: envelope(undefined), constants: {} }));
    expect(result.customer).toMatchObject({ language: "en", address: { country: "GB", city: "London", region: "Northeast" } });
  });

  it("reads the request's language from data.attributes.language", () => {
    const data = envelope({ name: "Bob" }, { language: "uk" });
    const result = resolved(resolveCustomer({ ...base, data, constants: { LANG: "de" } }));
    expect(result.customer.language).toBe("uk");
    expect(result.fields).toContainEqual({ path: "language", value: "uk", source: "request" });
  });
});
