import { describe, expect, it } from "vitest";
import { MODES, PROVIDERS, validateCredentials } from "../index";
import { generateKeyPair } from "./generate-key-pair";
import { parseKeyFile } from "./parse-key";
import { sampleCredentials } from "./sample-credentials";

const { publicKeyPem, privateKeyPem } = generateKeyPair();

describe("spec 5.1 note 5: generated key pairs", () => {
  it("generates spki public and pkcs8 private PEM keys", () => {
    expect(publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it("parses them as their own kind only", () => {
    expect(parseKeyFile(publicKeyPem, "public")).toBeNull();
    expect(parseKeyFile(privateKeyPem, "private")).toBeNull();
    expect(parseKeyFile(privateKeyPem, "public")).toBe("This is a private key; Public key takes a public key (-----BEGIN PUBLIC KEY-----)");
  });

  it("reports a well-formed PEM that node:crypto cannot read", () => {
    const fake = "-----BEGIN PUBLIC KEY-----\nQUFBQUFBQUFBQUFBQUFBQQ==\n-----END PUBLIC KEY-----\n";
    expect(parseKeyFile(fake, "public")).toBe("Public key could not be read: the file is not a valid public key");
  });
});

describe("spec 5.1: sample credentials", () => {
  it.each(PROVIDERS.flatMap((p) => p.kinds.flatMap((k) => MODES.map((mode) => [p.slug, k.kind, mode, k] as const))))(
    "are valid for %s %s in %s mode",
    (slug, kindName, mode, kind) => {
      expect(validateCredentials(kind, sampleCredentials(slug, kindName, mode), mode)).toMatchObject({ ok: true });
    },
  );

  it("produce Provider F keys of the mode's family and Provider D in UZS", () => {
    expect(sampleCredentials("provider-f", "h2h", "live")).toMatchObject({
      public_key: expect.stringMatching(/^prod_pub_[0-9a-f-]{36}$/),
      secret_key: expect.stringMatching(/^prod_sec_/),
    });
    expect(sampleCredentials("provider-d", "h2h", "test").currency).toBe("UZS");
  });

  it("refuse unknown providers and kinds", () => {
    expect(() => sampleCredentials("provider-b", "provider_account", "test")).toThrow(/provider-b provider_account/);
  });
});
