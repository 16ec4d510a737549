import { describe, expect, it } from "vitest";
import { safeReturnUrl, threeDsUrl } from "./three-ds";

const APP = "https://pay.example.com";

describe("threeDsUrl", () => {
  it("points at the sandbox's 3-D Secure page with the return URL encoded", () => {
    expect(threeDsUrl("https://pay.example.com/", "provider-b", "b_123", "https://pay.example.com/pay/cpi_1/return")).toBe(
      "https://pay.example.com/sandbox/3ds/provider-b/b_123?return=https%3A%2F%2Fpay.example.com%2Fpay%2Fcpi_1%2Freturn",
    );
  });

  it("encodes path segments", () => {
    expect(threeDsUrl(APP, "provider-b", "a/b?c", "/x")).toBe(`${APP}/sandbox/3ds/provider-b/a%2Fb%3Fc?return=%2Fx`);
  });
});

describe("safeReturnUrl (the 3-D Secure page is no open redirect)", () => {
  it.each([
    ["/pay/cpi_1/return", "/pay/cpi_1/return"],
    ["https://pay.example.com/pay/cpi_1/return?x=1", "https://pay.example.com/pay/cpi_1/return?x=1"],
  ])("accepts %s", (input, expected) => {
    expect(safeReturnUrl(input, APP)).toBe(expected);
  });

  it.each([
    "https://evil.example.com/pay/cpi_1/return",
    "http://pay.example.com/pay/cpi_1/return",
    "https://pay.example.com:8443/x",
    "https://pay.example.com.evil.com/x",
    "https://user:pw@pay.example.com/x",
    "//evil.example.com/x",
    "/\\evil.example.com/x",
    "\\\\evil.example.com",
    "javascript:alert(1)",
    "data:text/html,hi",
    "pay/cpi_1",
    "/pay\n/x",
    "",
    undefined,
    null,
  ])("refuses %s", (input) => {
    expect(safeReturnUrl(input, APP)).toBeUndefined();
  });
});
