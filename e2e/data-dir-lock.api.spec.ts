import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";
import { PROVIDERS } from "../lib/providers";

/** A second server on the same DATA_DIR fails at once; the first keeps serving its data. */
test("a second server on the same data directory stops at once with a clear message", async ({ request }) => {
  const dataDir = process.env.E2E_DATA_DIR!;
  const child = spawn("npx", ["tsx", "--import", "./scripts/register-server-only.mjs", "server.ts"], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", PORT: "3198", HOSTNAME: "127.0.0.1", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 45_000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  expect(code, output).toBe(1);
  expect(output).toContain(`The data directory ${dataDir} is in use by process`);

  const providers = await request.get("/api/providers");
  expect(providers.status()).toBe(200);
  expect((await providers.json()).data).toHaveLength(PROVIDERS.length);
});
