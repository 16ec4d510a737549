import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { VaultError } from "./vault-error";

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new VaultError("invalid_key", `Vault key must be exactly ${KEY_BYTES} bytes`);
  }
}

function decodePart(part: string): Buffer {
  if (!BASE64URL.test(part)) {
    throw new VaultError("malformed_token", "Encrypted value is malformed");
  }
  return Buffer.from(part, "base64url");
}

/**
 * Encrypts with AES-256-GCM under a fresh random IV. The version prefix is bound as
 * additional authenticated data so a token cannot be relabelled to another format later.
 */
export function encryptSecret(plaintext: string, key: Buffer): string {
  assertKey(key);
  if (typeof plaintext !== "string") {
    throw new VaultError("malformed_token", "Only strings can be encrypted");
  }
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(VERSION, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export function decryptSecret(token: string, key: Buffer): string {
  assertKey(key);
  if (typeof token !== "string") {
    throw new VaultError("malformed_token", "Encrypted value is malformed");
  }
  const parts = token.split(".");
  if (parts.length !== 4) {
    throw new VaultError("malformed_token", "Encrypted value is malformed");
  }
  const [version, ivPart, tagPart, ciphertextPart] = parts as [string, string, string, string];
  if (version !== VERSION) {
    throw new VaultError("unsupported_version", "Encrypted value has an unsupported version");
  }
  const iv = decodePart(ivPart);
  const tag = decodePart(tagPart);
  const ciphertext = decodePart(ciphertextPart);
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new VaultError("malformed_token", "Encrypted value is malformed");
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(VERSION, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    // The underlying error says nothing useful and must not be chained: a wrong key and
    // a tampered token are indistinguishable by design.
    throw new VaultError(
      "decrypt_failed",
      "Encrypted value could not be decrypted: wrong key or tampered data",
    );
  }
}

export function encryptJson(value: unknown, key: Buffer): string {
  const json = JSON.stringify(value);
  if (json === undefined) {
    throw new VaultError("invalid_json", "Value cannot be serialised to JSON");
  }
  return encryptSecret(json, key);
}

/** The caller vouches for `T`; validate the result with a schema where the shape matters. */
export function decryptJson<T = unknown>(token: string, key: Buffer): T {
  const json = decryptSecret(token, key);
  try {
    return JSON.parse(json) as T;
  } catch {
    throw new VaultError("invalid_json", "Decrypted value is not valid JSON");
  }
}
