import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Absolute URLs come from APP_URL, and cookies are Secure in production.
 * A production server others can reach refuses to start without a public https APP_URL
 * (lib/config.ts checkPublicBaseUrl), so it can neither hand customers a loopback hpp_url nor
 * send session cookies without Secure. The same start-up path `npm start` runs.
 */
function start(listen: string, env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "app-url-start-"));
  try {
    return spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        "./scripts/register-server-only.mjs",
        "--input-type=module",
        "-e",
        `await (await import('./lib/server-start.ts')).startServer({ listen: ${JSON.stringify(listen)} }); console.log('started');`,
      ],
      {
        cwd: process.cwd(),
        env: { ...process.env, DATABASE_URL: "", DATA_DIR: dir, LOG_LEVEL: "silent", APP_URL: "", TRUST_PROXY_HOPS: "", ...env },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("a production server others can reach", () => {
  it("does not start without APP_URL, and says what to set", () => {
    const run = start("0.0.0.0");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "Cannot start: APP_URL is not set, and the server listens on 0.0.0.0, where others reach it: set APP_URL to its public https:// address",
    );
    expect(run.stdout).not.toContain("started");
  });

  it("does not start with an http APP_URL", () => {
    const run = start("0.0.0.0", { APP_URL: "http://pay.example.com" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Cannot start: APP_URL must be https:// on a server others reach (it listens on 0.0.0.0)");
    expect(run.stdout).not.toContain("started");
  });
});
