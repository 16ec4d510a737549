import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decryptJson, decryptSecret, encryptJson, encryptSecret } from "./crypto-box";
import { VaultError } from "./vault-error";

const key = randomBytes(32);
const otherKey = randomBytes(32);
const secret = "prod_sec_very-secret-value-123";

function flipFirstChar(part: string): string {
  return (part[0] === "A" ? "B" : "A") + part.slice(1);
}

function captureError(run: () => unknown): VaultError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(VaultError);
    return error as VaultError;
  }
  throw new Error("expected a VaultError");
}

describe("encryptSecret / decryptSecret", () => {
  it("round-trips arbitrary strings, including empty and non-ASCII ones", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (plaintext) => {
        expect(decryptSecret(encryptSecret(plaintext, key), key)).toBe(plaintext);
      }),
      { numRuns: 200 },
    );
  });

  it("emits a versioned four-part base64url token without the plaintext", () => {
    const token = encryptSecret(secret, key);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain(secret);
  });

  it("uses a fresh IV on every call", () => {
    const tokens = Array.from({ length: 200 }, () => encryptSecret(secret, key));
    const ivs = new Set(tokens.map((token) => token.split(".")[1]));
    expect(ivs.size).toBe(tokens.length);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it.each([1, 2, 3])("detects tampering with part %i", (index) => {
    const parts = encryptSecret(secret, key).split(".");
    parts[index] = flipFirstChar(parts[index] ?? "");
    const error = captureError(() => decryptSecret(parts.join("."), key));
    expect(["decrypt_failed", "malformed_token"]).toContain(error.code);
  });

  it("detects a relabelled version", () => {
    const token = encryptSecret(secret, key).replace(/^v1/, "v2");
    expect(captureError(() => decryptSecret(token, key)).code).toBe("unsupported_version");
  });

  it.each(["", "v1", "v1.a.b", "v1.a.b.c.d", "v1.!!.AAAA.AAAA", "not a token"])(
    "rejects malformed token %j",
    (token) => {
      expect(captureError(() => decryptSecret(token, key)).code).toBe("malformed_token");
    },
  );

  it("fails with a wrong key and leaks neither plaintext nor key", () => {
    const error = captureError(() => decryptSecret(encryptSecret(secret, key), otherKey));
    expect(error.code).toBe("decrypt_failed");
    const text = `${error.message} ${String(error.stack)}`;
    for (const leak of [secret, key.toString("base64"), key.toString("hex"), otherKey.toString("base64")]) {
      expect(text).not.toContain(leak);
    }
    expect(error.cause).toBeUndefined();
  });

  it.each([0, 16, 31, 33])("rejects a %i-byte key", (length) => {
    const error = captureError(() => encryptSecret(secret, Buffer.alloc(length)));
    expect(error.code).toBe("invalid_key");
  });
});

describe("encryptJson / decryptJson", () => {
  it("round-trips JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const back = decryptJson(encryptJson(value, key), key);
        expect(back).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 100 },
    );
  });

  it("keeps the typed shape of a credential record", () => {
    const credentials = { merchant_id: "m-1", payment_key: "-----BEGIN KEY-----" };
    const back = decryptJson<typeof credentials>(encryptJson(credentials, key), key);
    expect(back.merchant_id).toBe("m-1");
  });

  it("rejects values JSON cannot represent", () => {
    expect(captureError(() => encryptJson(undefined, key)).code).toBe("invalid_json");
  });

  it("rejects a token whose plaintext is not JSON", () => {
    const token = encryptSecret("{not json", key);
    const error = captureError(() => decryptJson(token, key));
    expect(error.code).toBe("invalid_json");
    expect(error.message).not.toContain("{not json");
  });
});
