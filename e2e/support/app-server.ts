import { spawn, type ChildProcess } from "node:child_process";
import { findFreePort } from "./dev-server";

/**
 * A second production server (`server.ts`, the built app) on its own port and data directory, in
 * its own process group so a test can SIGKILL all of it and start it again on the same data.
 */
export type AppServer = { url: string; port: number; process: ChildProcess; output: () => string };

export async function startAppServer(dataDir: string, port?: number, env: Record<string, string> = {}): Promise<AppServer> {
  const chosen = port ?? (await findFreePort());
  const url = `http://127.0.0.1:${chosen}`;
  const child = spawn("npx", ["tsx", "--import", "./scripts/register-server-only.mjs", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PORT: String(chosen),
      HOSTNAME: "127.0.0.1",
      APP_URL: url,
      AUTH_SECRET: "restart-e2e-secret-0123456789abcdef",
      LOG_LEVEL: "warn",
      // Sign-up links are read from this server's own outbox, as on the main e2e server; the secrets
      // scan records the main server only.
      SMTP_URL: "",
      MAIL_OUTBOX_PAGE: "1",
      E2E_RECORD_DIR: "",
      ...env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const server = { url, port: chosen, process: child, output: () => output };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/sign-in`, { signal: AbortSignal.timeout(5_000) })).status === 200) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  killAppServer(server);
  throw new Error(`server did not start within 90 s:\n${output}`);
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGKILL to the whole process group: no shutdown hook runs, as in a crash or an OOM kill. Resolves
 * once no process of the group is left (the data directory's lock names a dead process then).
 */
export async function killAppServer(server: AppServer): Promise<void> {
  const pid = server.process.pid!;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
  const deadline = Date.now() + 15_000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}
