import { createCipheriv, randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decryptJson, decryptSecret, encryptJson, encryptSecret, keyId, resealSecret, sealedKeyId } from "./crypto-box";
import { attachPreviousKeys, keyringOf } from "./keyring";
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

  it("emits a versioned five-part base64url token naming its key, without the plaintext", () => {
    const token = encryptSecret(secret, key);
    expect(token).toMatch(/^v2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(token.split(".")[1]).toBe(keyId(key));
    expect(token).not.toContain(secret);
  });

  it("uses a fresh IV on every call", () => {
    const tokens = Array.from({ length: 200 }, () => encryptSecret(secret, key));
    const ivs = new Set(tokens.map((token) => token.split(".")[2]));
    expect(ivs.size).toBe(tokens.length);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it.each([2, 3, 4])("detects tampering with part %i", (index) => {
    const parts = encryptSecret(secret, key).split(".");
    parts[index] = flipFirstChar(parts[index] ?? "");
    const error = captureError(() => decryptSecret(parts.join("."), key));
    expect(["decrypt_failed", "malformed_token"]).toContain(error.code);
  });

  it("detects a relabelled version", () => {
    expect(captureError(() => decryptSecret(encryptSecret(secret, key).replace(/^v2/, "v3"), key)).code).toBe("unsupported_version");
    // A v2 token stripped of its key id reads as v1, whose authenticated data differs: it does not open.
    const [, , ...rest] = encryptSecret(secret, key).split(".");
    expect(captureError(() => decryptSecret(["v1", ...rest].join("."), key)).code).toBe("decrypt_failed");
  });

  it.each(["", "v1", "v1.a.b", "v1.a.b.c.d", "v1.!!.AAAA.AAAA", "v2.a.b.c", "v2.short.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AA", "not a token"])(
    "rejects malformed token %j",
    (token) => {
      expect(captureError(() => decryptSecret(token, key)).code).toBe("malformed_token");
    },
  );

  it("fails with a wrong key and leaks neither plaintext nor key", () => {
    // A v2 token names its key, so the wrong key is known without trying it; a v1 token is tried.
    const unknown = captureError(() => decryptSecret(encryptSecret(secret, key), otherKey));
    expect(unknown.code).toBe("unknown_key");
    const failed = captureError(() => decryptSecret(legacyToken(secret, key), otherKey));
    expect(failed.code).toBe("decrypt_failed");
    for (const error of [unknown, failed]) {
      const text = `${error.message} ${String(error.stack)}`;
      for (const leak of [secret, key.toString("base64"), key.toString("hex"), otherKey.toString("base64")]) {
        expect(text).not.toContain(leak);
      }
      expect(error.cause).toBeUndefined();
    }
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

/** A token as the vault sealed it before key rotation (v1: no key id, the version alone authenticated). */
function legacyToken(plaintext: string, sealKey: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey, iv, { authTagLength: 16 });
  cipher.setAAD(Buffer.from("v1", "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

describe("key rotation", () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const keyC = randomBytes(32);

  it("names a key by a stable 8-character id that is not the key", () => {
    expect(keyId(keyA)).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(keyId(Buffer.from(keyA))).toBe(keyId(keyA));
    expect(keyId(keyA)).not.toBe(keyId(keyB));
    expect(keyA.toString("base64url")).not.toContain(keyId(keyA));
    expect(captureError(() => keyId(Buffer.alloc(16))).code).toBe("invalid_key");
  });

  it("seals with the current key and opens values sealed under a previous one by its id", () => {
    const underA = encryptSecret(secret, keyA);
    const ring = { current: keyB, previous: [keyC, keyA] };
    expect(decryptSecret(underA, ring)).toBe(secret);
    const underB = encryptSecret(secret, ring);
    expect(sealedKeyId(underB)).toBe(keyId(keyB));
    expect(decryptSecret(underB, keyB)).toBe(secret);
    expect(captureError(() => decryptSecret(underB, keyA)).code).toBe("unknown_key");
  });

  it("says which key id is missing when no configured key sealed the value, and nothing more", () => {
    const underA = encryptSecret(secret, keyA);
    const error = captureError(() => decryptSecret(underA, { current: keyB, previous: [keyC] }));
    expect(error.code).toBe("unknown_key");
    expect(error.message).toContain(keyId(keyA));
    expect(error.message).toContain("CREDENTIALS_KEY_PREVIOUS");
    for (const leak of [secret, keyA.toString("base64"), keyB.toString("base64"), keyC.toString("base64")]) expect(error.message).not.toContain(leak);
  });

  it("opens v1 values sealed before key ids existed, under the current key or any previous one", () => {
    expect(sealedKeyId(legacyToken(secret, keyA))).toBeNull();
    expect(decryptSecret(legacyToken(secret, keyA), keyA)).toBe(secret);
    expect(decryptSecret(legacyToken(secret, keyA), { current: keyB, previous: [keyC, keyA] })).toBe(secret);
    expect(decryptJson(legacyToken('{"a":1}', keyA), { current: keyB, previous: [keyA] })).toEqual({ a: 1 });
    expect(captureError(() => decryptSecret(legacyToken(secret, keyA), { current: keyB, previous: [keyC] })).code).toBe("decrypt_failed");
  });

  it("a token under a known id that does not authenticate is a decrypt failure, not a fallback to other keys", () => {
    const parts = encryptSecret(secret, keyA).split(".");
    parts[4] = flipFirstChar(parts[4] ?? "");
    expect(captureError(() => decryptSecret(parts.join("."), { current: keyB, previous: [keyA] })).code).toBe("decrypt_failed");
  });

  it("re-seals under the current key only what is not already under it", () => {
    const ring = { current: keyB, previous: [keyA] };
    const underB = encryptSecret(secret, ring);
    expect(resealSecret(underB, ring)).toBeNull();
    for (const old of [encryptSecret(secret, keyA), legacyToken(secret, keyA), legacyToken(secret, keyB)]) {
      const again = resealSecret(old, ring)!;
      expect(sealedKeyId(again)).toBe(keyId(keyB));
      expect(decryptSecret(again, keyB)).toBe(secret);
    }
    expect(captureError(() => resealSecret(encryptSecret(secret, keyC), ring)).code).toBe("unknown_key");
  });

  it("a key Buffer carries the previous keys its loader attached, so callers holding it open old values", () => {
    const current = randomBytes(32);
    attachPreviousKeys(current, [keyA]);
    expect(keyringOf(current).previous).toEqual([keyA]);
    expect(decryptSecret(encryptSecret(secret, keyA), current)).toBe(secret);
    expect(keyringOf(Buffer.from(current)).previous).toEqual([]);
  });

  it("rejects a keyring holding a key of the wrong length", () => {
    const error = captureError(() => decryptSecret(encryptSecret(secret, keyA), { current: keyB, previous: [Buffer.alloc(8)] }));
    expect(error.code).toBe("invalid_key");
  });
});
