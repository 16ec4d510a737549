import { describe, expect, it } from "vitest";
import { checkCredentials, credentialsSchema, getKind, modeOf, validateCredentials } from "../index";
import { assertKeyPrefixMatchesMode } from "./key-rules";

const UUID = "3f2b8c1e-9a4d-4e6f-b1c2-7d8e9f0a1b2c";
const TAIL = "Zx9_Kq-3LmN0pQrStUvWxYz12345";
const keys = (pub: "dev" | "prod", sec: "dev" | "prod") => ({
  public_key: `${pub}_pub_${UUID}`,
  secret_key: `${sec}_sec_${TAIL}`,
});
const kind = getKind("provider-f", "h2h");
if (kind === undefined) throw new Error("Provider F missing");

describe("spec 5.2: Provider F key prefixes follow the mode", () => {
  it("accepts dev keys in test mode and prod keys in live mode", () => {
    expect(assertKeyPrefixMatchesMode({ ...keys("dev", "dev"), test_mode: true }, "test")).toEqual([]);
    expect(assertKeyPrefixMatchesMode({ ...keys("prod", "prod"), test_mode: false }, "live")).toEqual([]);
  });

  it("reports both dev keys used live", () => {
    expect(assertKeyPrefixMatchesMode({ ...keys("dev", "dev"), test_mode: false }, "live")).toEqual([
      { code: "key_mode_mismatch", path: ["public_key"], message: "Live mode takes a prod_pub_ key; this one starts with dev_pub_" },
      { code: "key_mode_mismatch", path: ["secret_key"], message: "Live mode takes a prod_sec_ key; this one starts with dev_sec_" },
    ]);
  });

  it("reports prod keys used in test mode", () => {
    expect(assertKeyPrefixMatchesMode({ ...keys("prod", "prod"), test_mode: true }, "test")).toEqual([
      { code: "key_mode_mismatch", path: ["public_key"], message: "Test mode takes a dev_pub_ key; this one starts with prod_pub_" },
      { code: "key_mode_mismatch", path: ["secret_key"], message: "Test mode takes a dev_sec_ key; this one starts with prod_sec_" },
    ]);
  });

  it("reports the key of the other family when the pair is mixed", () => {
    expect(assertKeyPrefixMatchesMode({ ...keys("dev", "prod"), test_mode: true }, "test")).toEqual([
      { code: "key_mode_mismatch", path: ["secret_key"], message: "Test mode takes a dev_sec_ key; this one starts with prod_sec_" },
    ]);
    expect(assertKeyPrefixMatchesMode({ ...keys("dev", "prod"), test_mode: false }, "live")).toEqual([
      { code: "key_mode_mismatch", path: ["public_key"], message: "Live mode takes a prod_pub_ key; this one starts with dev_pub_" },
    ]);
  });

  it("checks the keys against the connection's Test/Live mode, without any test_mode credential", () => {
    expect(assertKeyPrefixMatchesMode(keys("dev", "dev"), "test")).toEqual([]);
    expect(assertKeyPrefixMatchesMode(keys("prod", "prod"), "live")).toEqual([]);
    expect(assertKeyPrefixMatchesMode(keys("dev", "dev"), "live").map((p) => p.message)).toEqual([
      "Live mode takes a prod_pub_ key; this one starts with dev_pub_",
      "Live mode takes a prod_sec_ key; this one starts with dev_sec_",
    ]);
  });

  it("reports a legacy test_mode that disagrees with the connection's mode, and checks the keys against the mode", () => {
    expect(assertKeyPrefixMatchesMode({ ...keys("prod", "prod"), test_mode: true }, "live")).toEqual([
      { code: "mode_mismatch", path: ["test_mode"], message: "Test mode is on, but the connection is being saved as live" },
    ]);
    expect(assertKeyPrefixMatchesMode({ ...keys("dev", "dev"), test_mode: false }, "test")).toEqual([
      { code: "mode_mismatch", path: ["test_mode"], message: "Test mode is off, but the connection is being saved as test" },
    ]);
  });

  it("takes the mode from test_mode", () => {
    expect(modeOf(kind, { test_mode: true }, "live")).toBe("test");
    expect(modeOf(kind, { test_mode: false }, "test")).toBe("live");
    expect(modeOf(kind, {}, "live")).toBe("live");
  });
});

describe("spec 5.2: Provider F key formats", () => {
  const base = { ...keys("dev", "dev"), test_mode: true, currency: "EUR" };
  const issuesOf = (values: Record<string, unknown>) =>
    credentialsSchema(kind)
      .safeParse(values)
      .error?.issues.map((issue) => [issue.path, issue.message]) ?? [];

  it.each([
    ["dev_pub_3f2b8c1e-9a4d-4e6f-b1c2-7d8e9f0a1b2"],
    ["dev_pub_not-a-uuid"],
    ["test_pub_3f2b8c1e-9a4d-4e6f-b1c2-7d8e9f0a1b2c"],
    ["dev_sec_3f2b8c1e-9a4d-4e6f-b1c2-7d8e9f0a1b2c"],
  ])("rejects the public key %s", (publicKey) => {
    expect(issuesOf({ ...base, public_key: publicKey })).toEqual([[["public_key"], "Public key must be dev_pub_ or prod_pub_ followed by a UUID"]]);
  });

  it.each([["dev_sec_short"], ["dev_sec_has spaces in the middle of it!"], ["live_sec_" + TAIL], [`dev_pub_${TAIL}`]])(
    "rejects the secret key %s",
    (secretKey) => {
      expect(issuesOf({ ...base, secret_key: secretKey })).toEqual([
        [["secret_key"], "Secret key must be dev_sec_ or prod_sec_ followed by at least 24 letters, digits, _ or -"],
      ]);
    },
  );

  it("keeps checking the public key on update when the secret is left blank", () => {
    const update = { ...base, secret_key: "", public_key: `prod_pub_${UUID}` };
    expect(credentialsSchema(kind, { forUpdate: true }).safeParse(update).success).toBe(true);
    expect(checkCredentials(kind, update, "test", { forUpdate: true })).toEqual([
      { code: "key_mode_mismatch", path: ["public_key"], message: "Test mode takes a dev_pub_ key; this one starts with prod_pub_" },
    ]);
  });

  it("runs the rule through validateCredentials", () => {
    expect(validateCredentials(kind, { ...base, ...keys("dev", "prod") }, "test")).toEqual({
      ok: false,
      problems: [{ code: "key_mode_mismatch", path: ["secret_key"], message: "Test mode takes a dev_sec_ key; this one starts with prod_sec_" }],
    });
    expect(validateCredentials(kind, base, "test")).toMatchObject({ ok: true });
  });
});
