import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { keyringOf, type VaultKeys } from "./keyring";
import { VaultError } from "./vault-error";

/**
 * Token formats. `v1.<iv>.<tag>.<ciphertext>` (before key rotation) does not say which key sealed
 * it; it is still read, trying the current key and then each previous one. Everything sealed now is
 * `v2.<key id>.<iv>.<tag>.<ciphertext>`: the key id (keyId) picks the key, and the version with the
 * key id is the additional authenticated data, so neither can be relabelled.
 */
const LEGACY_VERSION = "v1";
const VERSION = "v2";
const ALGORITHM = "aes-256-gcm";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 6;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const KEY_ID = /^[A-Za-z0-9_-]{8}$/;
const keyIds = new WeakMap<Buffer, string>();

function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new VaultError("invalid_key", `Vault key must be exactly ${KEY_BYTES} bytes`);
  }
}

function malformed(): VaultError {
  return new VaultError("malformed_token", "Encrypted value is malformed");
}

function decodePart(part: string): Buffer {
  if (!BASE64URL.test(part)) throw malformed();
  return Buffer.from(part, "base64url");
}

/**
 * A key's public name: 8 base64url characters of a domain-separated SHA-256 of the key. It names a
 * key in tokens, logs and the rotation status without revealing anything about the key itself.
 */
export function keyId(key: Buffer): string {
  assertKey(key);
  let id = keyIds.get(key);
  if (id === undefined) {
    id = createHash("sha256").update("payment-orchestration credentials key id\u0000").update(key).digest().subarray(0, KEY_ID_BYTES).toString("base64url");
    keyIds.set(key, id);
  }
  return id;
}

/** Which key sealed a token: its key id, `null` for a v1 token (which names none). Throws on a malformed token. */
export function sealedKeyId(token: string): string | null {
  return parseToken(token).keyId;
}

type ParsedToken = { version: string; keyId: string | null; iv: Buffer; tag: Buffer; ciphertext: Buffer };

function parseToken(token: string): ParsedToken {
  if (typeof token !== "string") throw malformed();
  const parts = token.split(".");
  const version = parts[0];
  if (parts.length < 4 || parts.length > 5) throw malformed();
  if (version !== VERSION && version !== LEGACY_VERSION) {
    throw new VaultError("unsupported_version", "Encrypted value has an unsupported version");
  }
  if ((version === LEGACY_VERSION) !== (parts.length === 4)) throw malformed();
  const keyIdPart = version === VERSION ? parts[1]! : null;
  if (keyIdPart !== null && !KEY_ID.test(keyIdPart)) throw malformed();
  const [ivPart, tagPart, ciphertextPart] = parts.slice(-3) as [string, string, string];
  const iv = decodePart(ivPart);
  const tag = decodePart(tagPart);
  const ciphertext = decodePart(ciphertextPart);
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw malformed();
  return { version, keyId: keyIdPart, iv, tag, ciphertext };
}

function aadOf(version: string, id: string | null): Buffer {
  return Buffer.from(id === null ? version : `${version}.${id}`, "utf8");
}

/** The plaintext, or null when this key does not open the token (wrong key or tampered data). */
function openWith(parsed: ParsedToken, key: Buffer): string | null {
  try {
    const decipher = createDecipheriv(ALGORITHM, key, parsed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aadOf(parsed.version, parsed.keyId));
    decipher.setAuthTag(parsed.tag);
    return Buffer.concat([decipher.update(parsed.ciphertext), decipher.final()]).toString("utf8");
  } catch {
    // The underlying error says nothing useful and must not be chained: a wrong key and
    // a tampered token are indistinguishable by design.
    return null;
  }
}

function decryptFailed(): VaultError {
  return new VaultError("decrypt_failed", "Encrypted value could not be decrypted: wrong key or tampered data");
}

/**
 * Encrypts with AES-256-GCM under a fresh random IV, always with the current key (the keyring's
 * `current`, or the Buffer given).
 */
export function encryptSecret(plaintext: string, keys: VaultKeys): string {
  const { current } = keyringOf(keys);
  assertKey(current);
  if (typeof plaintext !== "string") {
    throw new VaultError("malformed_token", "Only strings can be encrypted");
  }
  const id = keyId(current);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, current, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aadOf(VERSION, id));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, id, iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(".");
}

/**
 * Opens a token with the key that sealed it: a v2 token's key id picks the current key or one of
 * the previous ones (CREDENTIALS_KEY_PREVIOUS), and an id of no configured key is an `unknown_key`
 * error naming that id; a v1 token is tried with the current key, then the previous ones in order.
 */
export function decryptSecret(token: string, keys: VaultKeys): string {
  const ring = keyringOf(keys);
  assertKey(ring.current);
  for (const key of ring.previous) assertKey(key);
  const parsed = parseToken(token);
  const candidates = [ring.current, ...ring.previous];
  if (parsed.keyId === null) {
    for (const key of candidates) {
      const plaintext = openWith(parsed, key);
      if (plaintext !== null) return plaintext;
    }
    throw decryptFailed();
  }
  const key = candidates.find((candidate) => keyId(candidate) === parsed.keyId);
  if (!key) {
    throw new VaultError(
      "unknown_key",
      `Encrypted value was sealed with credentials key ${parsed.keyId}, which is neither CREDENTIALS_KEY nor in CREDENTIALS_KEY_PREVIOUS`,
    );
  }
  const plaintext = openWith(parsed, key);
  if (plaintext === null) throw decryptFailed();
  return plaintext;
}

/**
 * The token sealed again under the current key, or null when it already is. Opens it first (so a
 * token under an unknown key or a tampered one throws, as decryptSecret does).
 */
export function resealSecret(token: string, keys: VaultKeys): string | null {
  const ring = keyringOf(keys);
  if (sealedKeyId(token) === keyId(ring.current)) return null;
  return encryptSecret(decryptSecret(token, ring), ring);
}

export function encryptJson(value: unknown, keys: VaultKeys): string {
  const json = JSON.stringify(value);
  if (json === undefined) {
    throw new VaultError("invalid_json", "Value cannot be serialised to JSON");
  }
  return encryptSecret(json, keys);
}

/** The caller vouches for `T`; validate the result with a schema where the shape matters. */
export function decryptJson<T = unknown>(token: string, keys: VaultKeys): T {
  const json = decryptSecret(token, keys);
  try {
    return JSON.parse(json) as T;
  } catch {
    throw new VaultError("invalid_json", "Decrypted value is not valid JSON");
  }
}
