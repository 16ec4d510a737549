import { describe, expect, it } from "vitest";
import { blocklistEntrySchema, customerFacts, matchBlocklist, rangeContains } from "./blocklist";

describe("blocklist matching", () => {
  it("matches addresses in IPv4 and IPv6 ranges, and nothing of the other family", () => {
    expect(rangeContains("203.0.113.0/24", "203.0.113.200")).toBe(true);
    expect(rangeContains("203.0.113.0/24", "203.0.114.1")).toBe(false);
    expect(rangeContains("127.0.0.0/8", "127.45.3.9")).toBe(true);
    expect(rangeContains("198.51.100.7", "198.51.100.7")).toBe(true);
    expect(rangeContains("2001:db8::/32", "2001:db8:1::5")).toBe(true);
    expect(rangeContains("2001:db8::/32", "2001:db9::5")).toBe(false);
    expect(rangeContains("203.0.113.0/24", "::ffff:203.0.113.9")).toBe(true);
    expect(rangeContains("0.0.0.0/0", "2001:db8::1")).toBe(false);
  });

  it("matches e-mails and countries whatever their case, BINs by prefix, cards by fingerprint", () => {
    const entries = [
      { kind: "email" as const, value: "fraud@example.com" },
      { kind: "bin" as const, value: "411111" },
      { kind: "country" as const, value: "GB" },
      { kind: "card" as const, value: "fp-1" },
    ];
    expect(matchBlocklist(entries, { email: " Fraud@Example.COM " })?.kind).toBe("email");
    expect(matchBlocklist(entries, { cardDigits: "4111111111111111" })?.kind).toBe("bin");
    expect(matchBlocklist(entries, { country: "gb" })?.kind).toBe("country");
    expect(matchBlocklist(entries, { cardFingerprint: "fp-1" })?.kind).toBe("card");
    expect(matchBlocklist(entries, { email: "ok@example.com", cardDigits: "4242424242424242", country: "DE", cardFingerprint: "fp-2" })).toBeNull();
  });

  it("reads a customer's country from its address", () => {
    expect(customerFacts({ email: "a@example.com", address: { country: "UA" } })).toEqual({ email: "a@example.com", country: "UA" });
    expect(customerFacts({})).toEqual({ email: null, country: null });
  });

  it("names the value's problem for each kind", () => {
    const problem = (kind: string, value: string) => blocklistEntrySchema.safeParse({ kind, value }).error?.issues[0];
    expect(problem("bin", "41")?.message).toBe("A BIN is the card number's first 6 to 8 digits");
    expect(problem("address", "999.1.1.1")?.path).toEqual(["value"]);
    expect(problem("country", "GBR")?.message).toBe("Enter a two-letter country code, such as GB");
    expect(problem("email", "not-an-email")?.message).toBe("Enter an e-mail address");
    expect(problem("card", "x")?.path).toEqual(["kind"]);
    expect(blocklistEntrySchema.parse({ kind: "address", value: "10.0.0.0/8" })).toEqual({ kind: "address", value: "10.0.0.0/8", note: "" });
  });
});
