import { describe, expect, it } from "vitest";
import { resolveCustomer } from "@/lib/customers";
import { PROVIDER_B_CONSTANTS, PROVIDER_B_DEFAULTS, PROVIDER_F_CONSTANTS } from "@/tests/fixtures/customers";
import { getProvider } from "@/lib/providers";
import { constantValueSchema } from "@/lib/customers/constant-formats";
import { addressMix, constantInputType, editorValues, previewConstants, sampleInvoiceData } from "./customer-preview-model";

const now = () => new Date("2025-06-01T12:00:00Z");

describe("previewConstants (the constants preview, spec 2.5)", () => {
  it("normalises valid values the way the server stores them", () => {
    const out = previewConstants(PROVIDER_B_CONSTANTS, { COUNTRY: " de ", PHONE: "+44 20 7946 0958", LANG: "FR", CITY: "Berlin" }, constantValueSchema);
    expect(out).toEqual({ constants: { COUNTRY: "DE", PHONE: "+442079460958", LANG: "fr", CITY: "Berlin" }, invalid: [] });
  });

  it("leaves out blank values and lists invalid ones instead of previewing them", () => {
    const out = previewConstants(PROVIDER_B_CONSTANTS, { COUNTRY: "XX", PHONE: "020 7946 0958", CITY: "  ", NAME: "" }, constantValueSchema);
    expect(out).toEqual({ constants: {}, invalid: ["COUNTRY", "PHONE"] });
  });

  it("checks a date of birth against the injected today", () => {
    expect(previewConstants(PROVIDER_F_CONSTANTS, { DATE_OF_BIRTH: "2025-06-01" }, constantValueSchema, now).invalid).toEqual(["DATE_OF_BIRTH"]);
    expect(previewConstants(PROVIDER_F_CONSTANTS, { DATE_OF_BIRTH: "1990-04-21" }, constantValueSchema, now).constants).toEqual({
      DATE_OF_BIRTH: "1990-04-21",
    });
  });

  it("ignores names the kind does not have and tolerates no values at all", () => {
    expect(previewConstants(PROVIDER_B_CONSTANTS, { DATE_OF_BIRTH: "1990-04-21" }, constantValueSchema)).toEqual({ constants: {}, invalid: [] });
    expect(previewConstants(PROVIDER_B_CONSTANTS, undefined, constantValueSchema)).toEqual({ constants: {}, invalid: [] });
  });
});

describe("sampleInvoiceData", () => {
  const providerB = getProvider("provider-b")!;

  it("is a payment request in the provider's service and currency (spec 2.1, 2.2)", () => {
    const data = sampleInvoiceData("without_customer", providerB);
    expect(data.type).toBe("payment-invoice");
    expect(data.attributes).toMatchObject({ service: "payment_card_eur_hpp", currency: "EUR", flow: "charge" });
    expect(data.attributes).not.toHaveProperty("customer");
  });

  it("with a customer: request values win over constants and defaults (spec 2.3, 2.6)", () => {
    const data = sampleInvoiceData("with_customer", providerB);
    const result = resolveCustomer({ data, constants: { CITY: "Berlin" }, constantSpecs: PROVIDER_B_CONSTANTS, defaults: PROVIDER_B_DEFAULTS });
    expect(result.ok && result.fields.find((f) => f.path === "customer.address.city")).toEqual({
      path: "customer.address.city",
      value: "Paris",
      source: "request",
    });
    expect(result.ok && result.fields.find((f) => f.path === "customer.address.country")?.source).toBe("default");
  });
});

describe("editor helpers", () => {
  it("maps formats to input types", () => {
    expect(constantInputType("email")).toBe("email");
    expect(constantInputType("phone")).toBe("tel");
    expect(constantInputType("phone_country_code")).toBe("tel");
    // The help text gives YYYY-MM-DD; a date picker would show the browser's locale format instead.
    expect(constantInputType("date_of_birth")).toBe("text");
    expect(constantInputType("country")).toBe("text");
  });

  it("gives every constant a string, cleared ones as blank", () => {
    expect(editorValues(PROVIDER_B_CONSTANTS.slice(0, 3), { REGION: "Bavaria", COUNTRY: null })).toEqual({ FULL_ADDRESS: "", REGION: "Bavaria", COUNTRY: "" });
  });
});

describe("addressMix (Provider B's defaults beside the merchant's own address)", () => {
  const resolve = (constants: Record<string, string>) => {
    const result = resolveCustomer({
      data: sampleInvoiceData("without_customer", getProvider("provider-b")!),
      constants,
      constantSpecs: PROVIDER_B_CONSTANTS,
      defaults: PROVIDER_B_DEFAULTS,
    });
    if (!result.ok) throw new Error("setup");
    return result.fields;
  };

  it("warns when the merchant's city would go out with B's London street, post code and region", () => {
    const mix = addressMix(resolve({ CITY: "Berlin" }));
    expect(mix?.own.map((f) => [f.path, f.value])).toEqual([["customer.address.city", "Berlin"]]);
    expect(mix?.defaults.map((f) => f.path).sort()).toEqual(
      ["customer.address.country", "customer.address.full_address", "customer.address.post_code", "customer.address.region"].sort(),
    );
  });

  it("says nothing when the whole address is the default or the merchant's own", () => {
    expect(addressMix(resolve({}))).toBeNull();
    expect(
      addressMix(resolve({ CITY: "Berlin", FULL_ADDRESS: "Unter den Linden 1, 10117 Berlin", POST_CODE: "10117", REGION: "Berlin", COUNTRY: "DE" })),
    ).toBeNull();
  });

  it("ignores non-address fields such as the e-mail", () => {
    expect(addressMix(resolve({ EMAIL: "shop@example.com" }))).toBeNull();
  });
});
