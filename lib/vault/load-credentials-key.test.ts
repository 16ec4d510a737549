import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "./crypto-box";
import { keyringOf } from "./keyring";
import { keyFilePath, loadCredentialsKey, loadCredentialsKeyring } from "./load-credentials-key";

const run = promisify(execFile);
const dirs: string[] = [];

function makeDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "vault-key-"));
  dirs.push(dir);
  return join(dir, "nested", "data");
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("loadCredentialsKey from CREDENTIALS_KEY", () => {
  it("decodes a base64 32-byte key and ignores the data directory", () => {
    const key = randomBytes(32);
    const dataDir = makeDataDir();
    const loaded = loadCredentialsKey({ env: { CREDENTIALS_KEY: key.toString("base64") }, dataDir, embedded: true });
    expect(loaded.equals(key)).toBe(true);
    expect(() => statSync(keyFilePath(dataDir))).toThrow();
  });

  it("accepts surrounding whitespace, as .env files often add it", () => {
    const key = randomBytes(32);
    const env = { CREDENTIALS_KEY: ` ${key.toString("base64")}\n` };
    expect(loadCredentialsKey({ env, dataDir: makeDataDir(), embedded: false }).equals(key)).toBe(true);
  });

  it.each([
    ["16 bytes", randomBytes(16).toString("base64")],
    ["33 bytes", randomBytes(33).toString("base64")],
    ["hex", randomBytes(32).toString("hex")],
    ["junk characters", `${randomBytes(32).toString("base64").slice(0, 40)}!!!=`],
    ["a password", "correct horse battery staple"],
  ])("rejects %s with instructions and without echoing the value", (_label, value) => {
    const attempt = () => loadCredentialsKey({ env: { CREDENTIALS_KEY: value }, dataDir: makeDataDir(), embedded: true });
    expect(attempt).toThrow(/exactly 32 bytes.*openssl rand -base64 32/);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain(value);
    }
  });
});

describe("loadCredentialsKey without CREDENTIALS_KEY", () => {
  it("requires the variable for a PostgreSQL deployment", () => {
    for (const env of [{}, { CREDENTIALS_KEY: "" }, { CREDENTIALS_KEY: "  " }]) {
      expect(() => loadCredentialsKey({ env, dataDir: makeDataDir(), embedded: false })).toThrow("CREDENTIALS_KEY is required when DATABASE_URL is set");
    }
  });

  it("generates a key file once, private to the owner, and reuses it", () => {
    const dataDir = makeDataDir();
    const first = loadCredentialsKey({ env: {}, dataDir, embedded: true });
    expect(first).toHaveLength(32);
    const path = keyFilePath(dataDir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, "utf8").trim(), "base64").equals(first)).toBe(true);
    const second = loadCredentialsKey({ env: { CREDENTIALS_KEY: "" }, dataDir, embedded: true });
    expect(second.equals(first)).toBe(true);
  });

  it("reads an existing key file", () => {
    const dataDir = makeDataDir();
    loadCredentialsKey({ env: {}, dataDir, embedded: true });
    const key = randomBytes(32);
    writeFileSync(keyFilePath(dataDir), key.toString("base64"));
    expect(loadCredentialsKey({ env: {}, dataDir, embedded: true }).equals(key)).toBe(true);
  });

  it("refuses a corrupt key file and leaves it untouched", () => {
    const dataDir = makeDataDir();
    loadCredentialsKey({ env: {}, dataDir, embedded: true });
    writeFileSync(keyFilePath(dataDir), "garbage");
    expect(() => loadCredentialsKey({ env: {}, dataDir, embedded: true })).toThrow(/32-byte key/);
    expect(readFileSync(keyFilePath(dataDir), "utf8")).toBe("garbage");
  });

  it("gives racing starters the same key", async () => {
    const dataDir = makeDataDir();
    const modulePath = resolve(import.meta.dirname, "load-credentials-key.ts");
    const script = [
      `import { loadCredentialsKey } from ${JSON.stringify(modulePath)};`,
      `const key = loadCredentialsKey({ env: {}, dataDir: ${JSON.stringify(dataDir)}, embedded: true });`,
      `process.stdout.write(key.toString("base64"));`,
    ].join("\n");
    const tsx = resolve(import.meta.dirname, "../../node_modules/.bin/tsx");
    // Outside Next, `server-only` needs the same hook as every other plain Node entry point.
    const hook = resolve(import.meta.dirname, "../../scripts/register-server-only.mjs");
    const starters = Array.from({ length: 6 }, () => run(tsx, ["--import", hook, "--eval", script]));
    const keys = (await Promise.all(starters)).map((result) => result.stdout);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(readFileSync(keyFilePath(dataDir), "utf8").trim());
  }, 30_000);
});

describe("loadCredentialsKeyring with CREDENTIALS_KEY_PREVIOUS (key rotation)", () => {
  const current = randomBytes(32);
  const oldA = randomBytes(32);
  const oldB = randomBytes(32);
  const load = (previous: string | undefined, extra: Record<string, string> = {}) =>
    loadCredentialsKeyring({
      env: { CREDENTIALS_KEY: current.toString("base64"), CREDENTIALS_KEY_PREVIOUS: previous, ...extra },
      dataDir: makeDataDir(),
      embedded: false,
    });

  it("has no previous keys when the variable is unset or blank", () => {
    for (const value of [undefined, "", "  ", " , "]) expect(load(value).previous).toEqual([]);
  });

  it("reads one key, or several separated by commas (spaces and a trailing comma allowed), in order", () => {
    expect(load(oldA.toString("base64")).previous).toEqual([oldA]);
    const ring = load(` ${oldA.toString("base64")} , ${oldB.toString("base64")},`);
    expect(ring.current.equals(current)).toBe(true);
    expect(ring.previous).toEqual([oldA, oldB]);
  });

  it("attaches the previous keys to the current key Buffer loadCredentialsKey returns", () => {
    const key = loadCredentialsKey({
      env: { CREDENTIALS_KEY: current.toString("base64"), CREDENTIALS_KEY_PREVIOUS: oldA.toString("base64") },
      dataDir: makeDataDir(),
      embedded: false,
    });
    expect(key.equals(current)).toBe(true);
    expect(keyringOf(key).previous).toEqual([oldA]);
    expect(decryptSecret(encryptSecret("sealed under A", oldA), key)).toBe("sealed under A");
  });

  it.each([
    [
      "a malformed entry",
      () => `${oldA.toString("base64")},${randomBytes(16).toString("base64")}`,
      /CREDENTIALS_KEY_PREVIOUS entry 2 of 2 must be the base64 encoding of exactly 32 bytes/,
    ],
    ["hex", () => oldA.toString("hex"), /CREDENTIALS_KEY_PREVIOUS entry 1 of 1 must be the base64 encoding/],
    ["the current key again", () => current.toString("base64"), /CREDENTIALS_KEY_PREVIOUS entry 1 of 1 is the same key as CREDENTIALS_KEY/],
    [
      "a repeated key",
      () => `${oldA.toString("base64")},${oldB.toString("base64")},${oldA.toString("base64")}`,
      /CREDENTIALS_KEY_PREVIOUS entry 3 of 3 repeats an earlier entry/,
    ],
    ["an empty entry between two keys", () => `${oldA.toString("base64")},,${oldB.toString("base64")}`, /CREDENTIALS_KEY_PREVIOUS entry 2 of 3 is empty/],
  ])("refuses %s, naming the entry and never echoing a key", (_label, value, message) => {
    const text = value();
    let thrown: unknown;
    try {
      load(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const error = thrown as Error;
    expect(error.message).toMatch(message);
    for (const entry of text.split(",").filter(Boolean)) expect(error.message).not.toContain(entry);
    expect(error.message).not.toContain(current.toString("base64"));
  });

  it("refuses previous keys when CREDENTIALS_KEY itself is not set (the embedded key file cannot be the new key)", () => {
    const attempt = () => loadCredentialsKeyring({ env: { CREDENTIALS_KEY_PREVIOUS: oldA.toString("base64") }, dataDir: makeDataDir(), embedded: true });
    expect(attempt).toThrow(/CREDENTIALS_KEY_PREVIOUS is set but CREDENTIALS_KEY is not/);
  });

  it("still rejects a malformed CREDENTIALS_KEY first", () => {
    expect(() => load(oldA.toString("base64"), { CREDENTIALS_KEY: "nope" })).toThrow(/CREDENTIALS_KEY must be the base64 encoding of exactly 32 bytes/);
  });
});
