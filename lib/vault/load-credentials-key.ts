import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { attachPreviousKeys, type CredentialsKeyring } from "./keyring";

const KEY_BYTES = 32;
const KEY_FILE_NAME = "credentials.key";
const HOW_TO_MAKE = "Generate one with: openssl rand -base64 32";
const STANDARD_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** A racing starter may see the key file between its creation and its write. */
const EMPTY_FILE_RETRIES = 50;
const EMPTY_FILE_WAIT_MS = 20;

export type LoadCredentialsKeyOptions = {
  env: Readonly<Record<string, string | undefined>>;
  dataDir: string;
  /** True for the embedded database; false when DATABASE_URL points at PostgreSQL. */
  embedded: boolean;
};

export function keyFilePath(dataDir: string): string {
  return join(dataDir, KEY_FILE_NAME);
}

/** Returns the key or null; never echoes the value back, it may be a real secret. */
function parseBase64Key(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!STANDARD_BASE64.test(trimmed)) return null;
  const key = Buffer.from(trimmed, "base64");
  // Buffer's decoder skips junk silently; the round trip proves the text was exact base64.
  const canonical = key.toString("base64").replace(/=+$/, "");
  if (key.length !== KEY_BYTES || canonical !== trimmed.replace(/=+$/, "")) return null;
  return key;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error ? String(error.code) : undefined;
}

function readKeyFile(path: string): Buffer | null {
  for (let attempt = 0; attempt <= EMPTY_FILE_RETRIES; attempt += 1) {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if (errorCode(error) === "ENOENT") return null;
      throw error;
    }
    if (text.trim() !== "") {
      const key = parseBase64Key(text);
      if (key) return key;
      // Never replace a bad file: secrets encrypted under the old key would be lost for good.
      throw new Error(
        `${path} does not hold a base64-encoded 32-byte key. Restore it from a backup; ${HOW_TO_MAKE} only if no credentials were saved with it.`,
      );
    }
    sleepSync(EMPTY_FILE_WAIT_MS);
  }
  throw new Error(`${path} stayed empty; remove it and start again`);
}

function createKeyFile(path: string, dataDir: string): Buffer | null {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  try {
    // "wx" fails if another starter created the file first, so nobody overwrites a key.
    writeFileSync(path, `${key.toString("base64")}\n`, { flag: "wx", mode: 0o600 });
    return key;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return null;
    throw error;
  }
}

/**
 * CREDENTIALS_KEY_PREVIOUS: one key, or several separated by commas, that only open values sealed
 * before a rotation. Errors name the entry by its position, never by its value.
 */
function parsePreviousKeys(text: string | undefined, current: Buffer, currentFromEnv: boolean): Buffer[] {
  const entries = (text ?? "").split(",").map((entry) => entry.trim());
  // A trailing comma is harmless; an empty entry between keys is more likely a pasting mistake.
  while (entries.at(-1) === "") entries.pop();
  if (entries.length === 0) return [];
  if (!currentFromEnv) {
    throw new Error(
      "CREDENTIALS_KEY_PREVIOUS is set but CREDENTIALS_KEY is not: a rotation puts the new key in CREDENTIALS_KEY and the old one in CREDENTIALS_KEY_PREVIOUS",
    );
  }
  const keys: Buffer[] = [];
  entries.forEach((entry, index) => {
    const name = `CREDENTIALS_KEY_PREVIOUS entry ${index + 1} of ${entries.length}`;
    if (entry === "") throw new Error(`${name} is empty; separate keys with single commas`);
    const key = parseBase64Key(entry);
    if (!key) throw new Error(`${name} must be the base64 encoding of exactly 32 bytes, as CREDENTIALS_KEY was before the rotation`);
    if (key.equals(current))
      throw new Error(`${name} is the same key as CREDENTIALS_KEY; a previous key must be the one CREDENTIALS_KEY held before the rotation`);
    if (keys.some((other) => other.equals(key))) throw new Error(`${name} repeats an earlier entry`);
    keys.push(key);
  });
  return keys;
}

/**
 * The current key and the previous ones (CREDENTIALS_KEY_PREVIOUS) of a key rotation. The current
 * key comes from loadCredentialsKey's rules; previous keys require CREDENTIALS_KEY to be set.
 */
export function loadCredentialsKeyring(options: LoadCredentialsKeyOptions): CredentialsKeyring {
  const current = loadCurrentKey(options);
  const fromEnv = options.env.CREDENTIALS_KEY;
  const previous = parsePreviousKeys(options.env.CREDENTIALS_KEY_PREVIOUS, current, fromEnv !== undefined && fromEnv.trim() !== "");
  return attachPreviousKeys(current, previous);
}

/**
 * The current credentials key, carrying the previous keys of a rotation (keyring.ts): the vault's
 * functions given this Buffer seal with it and open values sealed under any of them.
 */
export function loadCredentialsKey(options: LoadCredentialsKeyOptions): Buffer {
  return loadCredentialsKeyring(options).current;
}

/**
 * Resolves the key that encrypts connection credentials at rest.
 * An embedded deployment may keep it next to its data; a PostgreSQL deployment must not,
 * because the database and the key would then be backed up and leaked together.
 */
function loadCurrentKey({ env, dataDir, embedded }: LoadCredentialsKeyOptions): Buffer {
  const fromEnv = env.CREDENTIALS_KEY;
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    const key = parseBase64Key(fromEnv);
    if (!key) {
      throw new Error(`CREDENTIALS_KEY must be the base64 encoding of exactly 32 bytes. ${HOW_TO_MAKE}`);
    }
    return key;
  }
  if (!embedded) {
    throw new Error(`CREDENTIALS_KEY is required when DATABASE_URL is set. ${HOW_TO_MAKE}`);
  }
  const path = keyFilePath(dataDir);
  const existing = readKeyFile(path);
  if (existing) return existing;
  const created = createKeyFile(path, dataDir);
  if (created) return created;
  const winner = readKeyFile(path);
  if (!winner) throw new Error(`${path} vanished while starting; start again`);
  return winner;
}
