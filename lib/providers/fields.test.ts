import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldSchema } from "./credentials";
import { currencyField, featuresField, selectField, textField, toggleField, urlField } from "./fields";

const messages = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message) ?? [];

describe("spec 5.1: field builders describe single values, and fieldSchema checks them", () => {
  const merchantId = textField({ id: "merchant_id", label: "Merchant ID", help: "From the portal.", maxLength: 8 });

  it("trims text and names the field in its messages", () => {
    expect(fieldSchema(merchantId).parse("  M-1  ")).toBe("M-1");
    expect(messages(fieldSchema(merchantId).safeParse("   "))).toEqual(["Merchant ID is required"]);
    expect(messages(fieldSchema(merchantId).safeParse(undefined))).toEqual(["Merchant ID is required"]);
    expect(messages(fieldSchema(merchantId).safeParse("123456789"))).toEqual(["Merchant ID must be at most 8 characters"]);
    expect(messages(fieldSchema(merchantId).safeParse(12))).toEqual(["Merchant ID must be text"]);
  });

  it("accepts any non-blank text within the limit", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== ""),
        (value) => {
          expect(fieldSchema(merchantId).safeParse(value).success).toBe(true);
        },
      ),
    );
  });

  it("accepts only https URLs", () => {
    const url = urlField({ id: "api_url", label: "API URL", help: "From the letter." });
    expect(fieldSchema(url).safeParse("https://api.example.com/v1").success).toBe(true);
    for (const bad of ["http://api.example.com", "api.example.com", "javascript:alert(1)", "https://"]) {
      expect(messages(fieldSchema(url).safeParse(bad)), bad).toEqual(["API URL must be an https:// URL"]);
    }
  });

  it("restricts selects to their options", () => {
    const select = selectField({
      id: "api_type",
      label: "API type",
      help: "From the portal.",
      options: [{ value: "direct", label: "Direct" }],
    });
    expect(fieldSchema(select).safeParse("direct").success).toBe(true);
    expect(messages(fieldSchema(select).safeParse("other"))).toEqual(["API type must be one of: direct"]);
    expect(messages(fieldSchema(select).safeParse(undefined))).toEqual(["API type is required"]);
    expect(messages(fieldSchema(currencyField(["AMD", "EUR"])).safeParse("USD"))).toEqual(["Currency must be one of: AMD, EUR"]);
  });

  it("accepts booleans only for toggles and leaves them optional", () => {
    const toggle = toggleField({ id: "p2p", label: "P2P mode", help: "Ask the provider." });
    expect(toggle.required).toBe(false);
    expect(fieldSchema(toggle).safeParse(true).success).toBe(true);
    expect(messages(fieldSchema(toggle).safeParse("true"))).toEqual(["P2P mode must be on or off"]);
  });

  it("accepts known features once each", () => {
    const features = featuresField();
    expect(fieldSchema(features).safeParse(["payments", "payouts"]).success).toBe(true);
    expect(messages(fieldSchema(features).safeParse(["payments", "payments"]))).toEqual(["Features lists the same feature twice"]);
    expect(messages(fieldSchema(features).safeParse(["teleport"]))).toEqual(["Features must be one of: payments, payouts, tokenization, recurring"]);
    expect(messages(fieldSchema(features).safeParse("payments"))).toEqual(["Features must be a list"]);
  });
});
