import { describe, expect, it } from "vitest";
import { checkCredentials, credentialsSchema, getKind, validateCredentials } from "../index";
import { sampleCredentials } from "../server/sample-credentials";

const kind = getKind("provider-d", "h2h");
if (kind === undefined) throw new Error("Provider D missing");
const sample = sampleCredentials("provider-d", "h2h", "live");
const { merchant_category_code: _mcc, merchant_url: _url, ...withoutMerchantData } = sample;

describe("spec 5.1: Provider D 'Send merchant data'", () => {
  it("requires the category code and URL when the option is on", () => {
    const values = { ...withoutMerchantData, send_merchant_data: true };
    expect(credentialsSchema(kind).safeParse(values).success).toBe(true);
    expect(checkCredentials(kind, values, "live")).toEqual([
      { code: "required", path: ["merchant_category_code"], message: "Merchant category code is required when Send merchant data is on" },
      { code: "required", path: ["merchant_url"], message: "Merchant URL is required when Send merchant data is on" },
    ]);
  });

  it("treats blank values as missing", () => {
    const values = { ...withoutMerchantData, send_merchant_data: true, merchant_category_code: " ", merchant_url: "" };
    expect(checkCredentials(kind, values, "live").map((issue) => issue.path)).toEqual([["merchant_category_code"], ["merchant_url"]]);
  });

  it("needs neither when the option is off or absent", () => {
    expect(checkCredentials(kind, { ...withoutMerchantData, send_merchant_data: false }, "live")).toEqual([]);
    const { send_merchant_data: _flag, ...noFlag } = withoutMerchantData;
    expect(validateCredentials(kind, noFlag, "live")).toMatchObject({ ok: true });
  });

  it("validates the code and URL formats", () => {
    const issues = credentialsSchema(kind)
      .safeParse({ ...sample, merchant_category_code: "54a1", merchant_url: "http://shop.example.com" })
      .error?.issues.map((issue) => [issue.path, issue.message]);
    expect(issues).toEqual([
      [["merchant_category_code"], "Merchant category code must be 4 digits"],
      [["merchant_url"], "Merchant URL must be an https:// URL"],
    ]);
  });

  it("ignores stale values of the hidden fields once the option is off", () => {
    const values = { ...sample, send_merchant_data: false, merchant_category_code: "12" };
    const result = validateCredentials(kind, values, "live");
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && "merchant_category_code" in result.value).toBe(false);
  });

  it("requires an https API URL", () => {
    const issues = credentialsSchema(kind).safeParse({ ...sample, api_url: "ftp://api.example" }).error?.issues;
    expect(issues?.map((issue) => [issue.path, issue.message])).toEqual([[["api_url"], "API URL must be an https:// URL"]]);
  });

  it("allows one enabled connection per currency and mode, and says why", () => {
    expect(kind.onePerCurrencyAndMode?.reason).toMatch(/separate merchant ID and credential set per currency/);
  });
});
