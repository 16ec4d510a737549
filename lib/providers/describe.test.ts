import { describe, expect, it } from "vitest";
import { describeRegistry, PROVIDERS } from "./index";

function findNonJson(value: unknown, path: string): string | null {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNonJson(item, `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value as object)) {
      const found = findNonJson(item, `${path}.${key}`);
      if (found) return found;
    }
    return null;
  }
  return path;
}

describe("spec 5.1: public description of the registry", () => {
  const description = describeRegistry();

  it("holds only plain JSON values", () => {
    expect(findNonJson(description, "registry")).toBeNull();
    expect(JSON.parse(JSON.stringify(description))).toEqual(description);
    expect(JSON.stringify(description)).not.toMatch(/"schema"|_zod|"refine"/);
  });

  it("describes every provider, kind and field", () => {
    expect(description.providers.map((provider) => provider.slug)).toEqual(PROVIDERS.map((p) => p.slug));
    const described = description.providers.flatMap((p) => p.kinds.flatMap((k) => k.fields.map((f) => f.id)));
    const registered = PROVIDERS.flatMap((p) => p.kinds.flatMap((k) => k.fields.map((f) => f.id)));
    expect(described).toEqual(registered);
  });

  it("carries what the connection form needs", () => {
    const providerD = description.providers.find((provider) => provider.slug === "provider-d");
    const d = providerD?.kinds[0];
    expect(d?.onePerCurrencyAndMode?.reason).toMatch(/per currency/);
    expect(d?.fields.find((field) => field.id === "merchant_url")).toMatchObject({
      input: "url",
      required: false,
      showWhen: { field: "send_merchant_data", equals: true },
      hidden: false,
    });
    const f = description.providers.find((provider) => provider.slug === "provider-f")?.kinds[0];
    expect(f?.modeField).toBe("test_mode");
    expect(f?.fields.find((field) => field.id === "secret_key")).toMatchObject({ secret: true, input: "secret" });
    const e = description.providers.find((provider) => provider.slug === "provider-e")?.kinds[0];
    expect(e?.fields.find((field) => field.id === "public_key")).toMatchObject({ pem: "public", input: "key_file" });
    expect(e?.fields.find((field) => field.id === "generated_key_id")?.hidden).toBe(true);
    const b = description.providers.find((provider) => provider.slug === "provider-b")?.kinds[0];
    expect(b?.defaults.language).toBe("en");
    expect(b?.constants.find((constant) => constant.name === "PHONE")).toEqual({
      name: "PHONE",
      target: "customer.phone",
      label: "Customer phone",
      format: "phone",
    });
    expect(providerD?.services).toEqual([{ code: "payment_card_uzs_hpp", currency: "UZS", direction: "payment", hostedPage: true }]);
  });
});
