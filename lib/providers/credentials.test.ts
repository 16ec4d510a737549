import { describe, expect, it } from "vitest";
import { checkCredentials, credentialsSchema, dropInactiveFields, getKind, modeOf, validateCredentials } from "./index";
import { sampleCredentials } from "./server/sample-credentials";

const providerB = getKind("provider-b", "h2h");
const providerD = getKind("provider-d", "h2h");
if (providerB === undefined || providerD === undefined) throw new Error("registry incomplete");

describe("spec 5.1: credential objects", () => {
  it("rejects several unknown keys in one message", () => {
    const result = credentialsSchema(providerB).safeParse({ terminal_id: "T", secret_key: "s", currency: "EUR", a: 1, b: 2 });
    expect(result.error?.issues).toMatchObject([{ path: [], message: "Unknown credential fields: a, b" }]);
  });

  it("still requires a new secret on create but not on update", () => {
    const values = { terminal_id: "T-1", secret_key: "", currency: "EUR" };
    expect(credentialsSchema(providerB).safeParse(values).error?.issues).toMatchObject([{ path: ["secret_key"], message: "Secret key is required" }]);
    expect(credentialsSchema(providerB, { forUpdate: true }).parse(values)).toEqual({ terminal_id: "T-1", currency: "EUR" });
    expect(credentialsSchema(providerB, { forUpdate: true }).parse({ terminal_id: "T-1", currency: "EUR" })).toEqual({
      terminal_id: "T-1",
      currency: "EUR",
    });
  });

  it("validates non-secret fields on update as on create", () => {
    const result = credentialsSchema(providerB, { forUpdate: true }).safeParse({ terminal_id: " ", currency: "USD" });
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [["terminal_id"], "Terminal ID is required"],
      [["currency"], "Currency must be one of: EUR"],
    ]);
  });

  it("validates a secret given on update", () => {
    const result = credentialsSchema(providerB, { forUpdate: true }).safeParse({
      terminal_id: "T-1",
      secret_key: "x".repeat(300),
      currency: "EUR",
    });
    expect(result.error?.issues).toMatchObject([{ path: ["secret_key"], message: "Secret key must be at most 256 characters" }]);
  });

  it("keeps the chosen mode for kinds without a mode field", () => {
    expect(modeOf(providerB, { test_mode: true }, "live")).toBe("live");
  });

  it("drops values of fields whose showWhen condition is not met", () => {
    const sample = sampleCredentials("provider-d", "h2h", "test");
    const off = dropInactiveFields(providerD, { ...sample, send_merchant_data: false });
    expect(Object.keys(off)).not.toContain("merchant_url");
    expect(Object.keys(dropInactiveFields(providerD, sample))).toContain("merchant_url");
  });

  it("reports schema issues and rule issues in one shape", () => {
    expect(validateCredentials(providerB, { terminal_id: "T-1", currency: "EUR" }, "test")).toEqual({
      ok: false,
      problems: [{ code: "invalid_type", path: ["secret_key"], message: "Secret key is required" }],
    });
    const sample = sampleCredentials("provider-d", "h2h", "live");
    expect(validateCredentials(providerD, { ...sample, merchant_url: "" }, "live")).toEqual({
      ok: false,
      problems: [{ code: "required", path: ["merchant_url"], message: "Merchant URL is required when Send merchant data is on" }],
    });
  });

  it("runs no rules for kinds without any", () => {
    expect(checkCredentials(providerB, {}, "live")).toEqual([]);
  });
});

describe("spec 5.1: unknown credential fields in validateCredentials", () => {
  it("names each unknown field on its own path", () => {
    const result = validateCredentials(providerB, { terminal_id: "T", secret_key: "s", currency: "EUR", a: 1, b: 2 }, "test");
    expect(result).toEqual({
      ok: false,
      problems: [
        { code: "unrecognized_keys", path: ["a"], message: 'Unknown credential field "a"' },
        { code: "unrecognized_keys", path: ["b"], message: 'Unknown credential field "b"' },
      ],
    });
  });
});
