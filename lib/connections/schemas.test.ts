import { describe, expect, it } from "vitest";
import { createConnectionSchema } from "./schemas";

const UUID = "3f2b8c1e-9a4d-4e6f-b1c2-7d8e9f0a1b2c";
const TAIL = "Zx9_Kq-3LmN0pQrStUvWxYz12345";

function issuesOf(input: Record<string, unknown>) {
  const parsed = createConnectionSchema.safeParse(input);
  expect(parsed.success).toBe(false);
  return parsed.error!.issues.map((issue) => [issue.path.join("."), issue.message]);
}

describe("createConnectionSchema reports every problem at once", () => {
  it("Provider D submitted empty with 'Send merchant data' on: the merchant data fields come with the others", () => {
    const issues = issuesOf({
      provider: "provider-d",
      kind: "h2h",
      label: "",
      mode: "test",
      credentials: { currency: "UZS", send_merchant_data: true, p2p: false, features: [] },
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        ["label", "Label is required"],
        ["credentials.api_key", "API key is required"],
        ["credentials.secret_key", "Secret key is required"],
        ["credentials.api_url", "API URL is required"],
        ["credentials.merchant_id", "Merchant ID is required"],
        ["credentials.service_id", "Service ID is required"],
        ["credentials.merchant_category_code", "Merchant category code is required when Send merchant data is on"],
        ["credentials.merchant_url", "Merchant URL is required when Send merchant data is on"],
      ]),
    );
    expect(issues).toHaveLength(8);
  });

  it("a malformed conditional field reports its own problem once, not also 'required'", () => {
    const issues = issuesOf({
      provider: "provider-d",
      kind: "h2h",
      label: "D",
      mode: "test",
      credentials: { currency: "UZS", send_merchant_data: true, merchant_category_code: "54", merchant_url: "http://shop.example" },
    });
    expect(issues.filter(([path]) => path === "credentials.merchant_category_code")).toEqual([
      ["credentials.merchant_category_code", "Merchant category code must be 4 digits"],
    ]);
    expect(issues.filter(([path]) => path === "credentials.merchant_url")).toEqual([["credentials.merchant_url", "Merchant URL must be an https:// URL"]]);
  });

  it("Provider F: a bad key format and the other key's wrong family are reported together", () => {
    const issues = issuesOf({
      provider: "provider-f",
      kind: "h2h",
      label: "F",
      mode: "live",
      credentials: { public_key: "dev_pub_not-a-uuid", secret_key: `dev_sec_${TAIL}`, currency: "EUR" },
    });
    expect(issues).toEqual([
      ["credentials.public_key", "Public key must be dev_pub_ or prod_pub_ followed by a UUID"],
      ["credentials.secret_key", "Live mode takes a prod_sec_ key; this one starts with dev_sec_"],
    ]);
  });
});

describe("Provider F follows the Test/Live choice", () => {
  const credentials = (family: "dev" | "prod") => ({ public_key: `${family}_pub_${UUID}`, secret_key: `${family}_sec_${TAIL}`, currency: "EUR" });

  it("takes dev keys in Test mode and prod keys in Live mode, with no test_mode credential", () => {
    const test = createConnectionSchema.safeParse({ provider: "provider-f", kind: "h2h", label: "F", mode: "test", credentials: credentials("dev") });
    expect(test.success && test.data.mode).toBe("test");
    const live = createConnectionSchema.safeParse({ provider: "provider-f", kind: "h2h", label: "F", mode: "live", credentials: credentials("prod") });
    expect(live.success && live.data.mode).toBe("live");
  });

  it("refuses dev keys in Live mode, naming the keys Live takes", () => {
    expect(issuesOf({ provider: "provider-f", kind: "h2h", label: "F", mode: "live", credentials: credentials("dev") })).toEqual([
      ["credentials.public_key", "Live mode takes a prod_pub_ key; this one starts with dev_pub_"],
      ["credentials.secret_key", "Live mode takes a prod_sec_ key; this one starts with dev_sec_"],
    ]);
  });

  it("asks for the mode like every provider when neither mode nor a legacy test_mode is sent", () => {
    expect(issuesOf({ provider: "provider-f", kind: "h2h", label: "F", credentials: credentials("dev") })).toEqual([["mode", "Choose test or live mode"]]);
  });

  it("still reads a legacy test_mode sent without a mode", () => {
    const parsed = createConnectionSchema.safeParse({
      provider: "provider-f",
      kind: "h2h",
      label: "F",
      credentials: { ...credentials("prod"), test_mode: false },
    });
    expect(parsed.success && parsed.data.mode).toBe("live");
  });
});
