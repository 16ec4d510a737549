import { randomBytes } from "node:crypto";
import * as realFs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

// Lets a test act as a rival starter at exact moments that a real race hits only rarely.
const hooks = vi.hoisted(() => ({
  beforeWrite: undefined as undefined | ((path: string) => void),
  afterRead: undefined as undefined | ((path: string, text: string) => void),
}));

vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  return {
    ...actual,
    readFileSync: ((...args: Parameters<typeof actual.readFileSync>) => {
      const result = actual.readFileSync(...args);
      hooks.afterRead?.(String(args[0]), String(result));
      return result;
    }) as typeof actual.readFileSync,
    writeFileSync: ((...args: Parameters<typeof actual.writeFileSync>) => {
      hooks.beforeWrite?.(String(args[0]));
      return actual.writeFileSync(...args);
    }) as typeof actual.writeFileSync,
  };
});

// Unit files share one module registry (vitest.config.ts): an earlier file may have loaded this
// module with the real node:fs, so it is loaded afresh here, through the mock.
vi.resetModules();
const { keyFilePath, loadCredentialsKey } = await import("./load-credentials-key");

const dirs: string[] = [];

function makeDataDir(): string {
  const dir = realFs.mkdtempSync(join(tmpdir(), "vault-race-"));
  dirs.push(dir);
  return join(dir, "data");
}

afterEach(() => {
  hooks.beforeWrite = undefined;
  hooks.afterRead = undefined;
  for (const dir of dirs.splice(0)) realFs.rmSync(dir, { recursive: true, force: true });
});

describe("loadCredentialsKey when another starter wins the race", () => {
  it("reads the rival's key instead of overwriting it (EEXIST)", () => {
    const dataDir = makeDataDir();
    const rivalKey = randomBytes(32);
    hooks.beforeWrite = (path) => {
      hooks.beforeWrite = undefined;
      realFs.writeFileSync(path, rivalKey.toString("base64"), { flag: "wx" });
    };
    const loaded = loadCredentialsKey({ env: {}, dataDir, embedded: true });
    expect(loaded.equals(rivalKey)).toBe(true);
    expect(realFs.readFileSync(keyFilePath(dataDir), "utf8")).toBe(rivalKey.toString("base64"));
  });

  it("waits while the rival has created the file but not yet written it", () => {
    const dataDir = makeDataDir();
    const rivalKey = randomBytes(32);
    let emptyReads = 0;
    hooks.beforeWrite = (path) => {
      hooks.beforeWrite = undefined;
      realFs.writeFileSync(path, "", { flag: "wx" });
    };
    hooks.afterRead = (path, text) => {
      if (text !== "") return;
      emptyReads += 1;
      if (emptyReads === 2) realFs.writeFileSync(path, rivalKey.toString("base64"));
    };
    const loaded = loadCredentialsKey({ env: {}, dataDir, embedded: true });
    expect(loaded.equals(rivalKey)).toBe(true);
    expect(emptyReads).toBe(2);
  });
});
