import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { lockDataDir } from "@/lib/db/lock";
import { unique } from "./helpers/db";

const run = promisify(execFile);
const dirs: string[] = [];

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "po-admin-"));
  dirs.push(dir);
  return dir;
}

async function admin(args: string[], env: Record<string, string>) {
  try {
    const { stdout } = await run("npx", ["tsx", "--import", "./scripts/register-server-only.mjs", "scripts/admin.ts", ...args], {
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return { code: 0, json: JSON.parse(stdout.trim().split("\n").at(-1)!) };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, json: JSON.parse(e.stdout.trim().split("\n").at(-1)!) };
  }
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run admin", () => {
  const env = (): Record<string, string> => (process.env.DATABASE_URL ? {} : { DATA_DIR: tempDir(), DATABASE_URL: "" });

  it("create-merchant prints one JSON line with the merchant, account and API key; a repeat is refused", async () => {
    const account = unique("cli");
    const where = env();
    const args = ["create-merchant", "--email", `${account}@example.com`, "--password", "cli-password-1", "--commerce-account", account];
    const first = await admin(args, where);
    expect(first.code).toBe(0);
    expect(first.json).toEqual({ merchantId: expect.stringMatching(/^mer_/), commerceAccount: account, apiKey: expect.stringMatching(/^pok_/) });
    const again = await admin(args, where);
    expect(again.code).toBe(1);
    expect(again.json.error).toContain("An account with this e-mail already exists");
  }, 120_000);

  it("refuses a weak password with the field named", async () => {
    const result = await admin(["create-merchant", "--email", "weak@example.com", "--password", "short", "--commerce-account", unique("weak")], env());
    expect(result.code).toBe(1);
    expect(result.json.error).toContain("password: Password must be at least 10 characters");
  }, 60_000);

  it("fails at once with the holder's pid when a server holds the embedded data directory", async () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    try {
      const result = await admin(["create-merchant", "--email", "x@example.com", "--password", "cli-password-1", "--commerce-account", unique("x")], {
        DATA_DIR: dir,
        DATABASE_URL: "",
      });
      expect(result.code).toBe(1);
      expect(result.json.error).toContain(`is in use by process ${process.pid}`);
    } finally {
      release();
    }
  }, 60_000);
});
