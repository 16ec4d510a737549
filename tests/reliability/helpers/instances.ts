import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A real app instance: `server.ts` over the production build, on its own port and data directory,
 * on the suite's PostgreSQL (DATABASE_URL), in its own process group so it can be stopped whole.
 */
export type Instance = { name: string; url: string; process: ChildProcess; output: () => string };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** One pg-boss schema for the instances of one suite, so no other suite's workers take their jobs. */
export function suiteJobsSchema(): string {
  return `pgboss_rel_${randomBytes(5).toString("hex")}`;
}

/** `port`: a restart on the address the clients already use (the crash suite). */
export async function startInstance(name: string, env: Record<string, string> = {}, options: { port?: number } = {}): Promise<Instance> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `po-rel-${name}-`));
  // tsx itself, not through npx: npx dies of the signal at once, tsx passes it on, waits for the
  // server and exits with its code (the crash suite checks a SIGTERM ends in exit 0).
  const child = spawn(path.join("node_modules", ".bin", "tsx"), ["--import", "./scripts/register-server-only.mjs", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_URL: url,
      LOG_LEVEL: "warn",
      ...env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const instance: Instance = { name, url, process: child, output: () => output };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/sign-in`, { signal: AbortSignal.timeout(5_000) })).status === 200) return instance;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await stopInstance(instance);
  throw new Error(`instance ${name} did not start within 120 s:\n${output}`);
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM (workers finish their job in hand), then SIGKILL to whatever of the group is left. */
export async function stopInstance(instance: Instance | undefined): Promise<void> {
  const pid = instance?.process.pid;
  if (!pid) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + 10_000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (groupAlive(pid)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}

/** SIGKILL to the whole process group, as a crash or the OOM killer would end it; resolves once it is gone. */
export async function killInstance(instance: Instance): Promise<void> {
  const pid = instance.process.pid;
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    return;
  }
  while (groupAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}
