import { createHash, createPublicKey, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { describeKeyPem, keySummary } from "./key-fingerprint";

describe("key files by fingerprint and type", () => {
  const rsa = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const ed = generateKeyPairSync("ed25519", { publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });

  it("names an RSA public key and fingerprints the SHA-256 of its DER, shortened", () => {
    const der = createPublicKey(rsa.publicKey).export({ type: "spki", format: "der" });
    const digest = createHash("sha256").update(der).digest("hex");
    expect(describeKeyPem(rsa.publicKey)).toEqual({ type: "RSA 2048 public key", fingerprint: `SHA256:${digest.slice(0, 16)}…` });
  });

  it("gives a private key the fingerprint of its public half, and shows nothing of the private key", () => {
    const summary = keySummary(rsa.privateKey)!;
    expect(summary).toBe(`RSA 2048 private key · ${describeKeyPem(rsa.publicKey)!.fingerprint}`);
    const body = rsa.privateKey.replace(/-----[A-Z ]+-----/g, "").replace(/\s/g, "");
    for (let i = 0; i + 8 <= body.length; i += 8) expect(summary).not.toContain(body.slice(i, i + 8));
  });

  it("names Ed25519 keys", () => {
    expect(describeKeyPem(ed.privateKey)?.type).toBe("Ed25519 private key");
    expect(describeKeyPem(ed.publicKey)?.type).toBe("Ed25519 public key");
  });

  it("returns null for text that is not a readable key", () => {
    expect(describeKeyPem("-----BEGIN PUBLIC KEY-----\nQUFB\n-----END PUBLIC KEY-----")).toBeNull();
  });
});
