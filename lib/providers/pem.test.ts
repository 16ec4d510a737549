import { describe, expect, it } from "vitest";
import { credentialsSchema, getKind } from "./index";
import { checkPem, findPemBlocks } from "./pem";
import { generateKeyPair } from "./server/generate-key-pair";

const { publicKeyPem, privateKeyPem } = generateKeyPair();

function relabel(pem: string, from: string, to: string): string {
  return pem.replaceAll(`BEGIN ${from}`, `BEGIN ${to}`).replaceAll(`END ${from}`, `END ${to}`);
}

describe("spec 5.1: key files are single PEM blocks of the right kind", () => {
  it("accepts the generated spki public and pkcs8 private keys", () => {
    expect(checkPem(publicKeyPem, "public", "Public key")).toBeNull();
    expect(checkPem(privateKeyPem, "private", "Private key")).toBeNull();
  });

  it("accepts the RSA and EC labels", () => {
    expect(checkPem(relabel(publicKeyPem, "PUBLIC KEY", "RSA PUBLIC KEY"), "public", "Public key")).toBeNull();
    expect(checkPem(relabel(privateKeyPem, "PRIVATE KEY", "RSA PRIVATE KEY"), "private", "Private key")).toBeNull();
    expect(checkPem(relabel(privateKeyPem, "PRIVATE KEY", "EC PRIVATE KEY"), "private", "Private key")).toBeNull();
  });

  it("names the mix-up when a private key is uploaded as the public key", () => {
    expect(checkPem(privateKeyPem, "public", "Public key")).toBe("This is a private key; Public key takes a public key (-----BEGIN PUBLIC KEY-----)");
  });

  it("names the mix-up when a public key is uploaded as the private key", () => {
    expect(checkPem(publicKeyPem, "private", "Private key")).toBe("This is a public key; Private key takes a private key (-----BEGIN PRIVATE KEY-----)");
  });

  it("rejects files over 64 KiB before looking inside", () => {
    const padded = `${publicKeyPem}\n${"#".repeat(64 * 1024)}`;
    expect(checkPem(padded, "public", "Public key")).toBe("Key file is larger than 64 KiB");
  });

  it("rejects garbage, several blocks, foreign labels and damaged bodies", () => {
    expect(checkPem("hello world", "public", "Payment key")).toBe("Payment key is not a PEM key file; expected a public key (-----BEGIN PUBLIC KEY-----)");
    expect(checkPem(`${publicKeyPem}${publicKeyPem}`, "public", "Public key")).toBe("Public key must contain exactly one PEM block; this file has 2");
    expect(checkPem(relabel(publicKeyPem, "PUBLIC KEY", "CERTIFICATE"), "public", "Public key")).toBe(
      "Public key takes a public key (-----BEGIN PUBLIC KEY-----); this file holds a CERTIFICATE",
    );
    expect(checkPem(publicKeyPem.replace(/\n[A-Za-z0-9+/]{10}/, "\n!!!!!!!!!!"), "public", "Public key")).toBe(
      "Public key is damaged: the PEM body is not valid base64",
    );
    expect(checkPem(publicKeyPem.replace("END PUBLIC KEY", "END PRIVATE KEY"), "public", "Public key")).toMatch(
      /begins with PUBLIC KEY but ends with PRIVATE KEY/,
    );
    expect(checkPem("   ", "private", "Private key")).toBe("Private key is required");
  });

  it("counts an unterminated extra block", () => {
    expect(checkPem(`${publicKeyPem}\n-----BEGIN PUBLIC KEY-----\nAAAA`, "public", "Public key")).toMatch(/exactly one PEM block; this file has 2/);
    expect(findPemBlocks(publicKeyPem)).toHaveLength(1);
  });
});

describe("spec 5.1: key-file fields report PEM problems on their path", () => {
  const kind = getKind("provider-a", "provider_account");
  if (kind === undefined) throw new Error("Provider A provider account missing");
  const valid = { merchant_id: "M1", service_code: "S1", payment_key: publicKeyPem, private_key: privateKeyPem };

  it("puts swapped keys on each field with the field's own label", () => {
    const result = credentialsSchema(kind).safeParse({ ...valid, payment_key: privateKeyPem, private_key: publicKeyPem });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [["payment_key"], "This is a private key; Payment key takes a public key (-----BEGIN PUBLIC KEY-----)"],
      [["private_key"], "This is a public key; Private key takes a private key (-----BEGIN PRIVATE KEY-----)"],
    ]);
  });

  it("trims the stored PEM text", () => {
    const result = credentialsSchema(kind).safeParse({ ...valid, payment_key: `\n\n${publicKeyPem}\n\n` });
    expect(result.data?.payment_key).toBe(publicKeyPem.trim());
  });

  it("rejects a non-string key with a clear message", () => {
    const result = credentialsSchema(kind).safeParse({ ...valid, private_key: 42 });
    expect(result.error?.issues[0]).toMatchObject({ path: ["private_key"], message: "Private key must be text" });
  });
});
