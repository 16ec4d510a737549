import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";

/** `npm run dev`, as the README starts it, on its own port and data directory, with everything it prints. */
export type DevServer = { url: string; port: number; dataDir: string; process: ChildProcess; output: () => string };

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Starts `npm run dev` in its own process group, so a test can always clean up all of it. */
export async function startDevServer(): Promise<DevServer> {
  const port = await findFreePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "po-dev-"));
  const env = {
    ...process.env,
    // Playwright's workers may carry another mode; next dev runs in development.
    NODE_ENV: "development" as const,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    AUTH_SECRET: "dev-server-e2e-secret-0123456789abcdef",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const child = spawn("npm", ["run", "dev"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return { url: `http://localhost:${port}`, port, dataDir, process: child, output: () => output };
}

/** Resolves once `path` answers 200; the first request also compiles the route. */
export async function waitUntilServing(server: DevServer, pathname: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null) throw new Error(`npm run dev exited early:\n${server.output()}`);
    try {
      const response = await fetch(`${server.url}${pathname}`, { signal: AbortSignal.timeout(deadline - Date.now()) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`npm run dev did not serve ${pathname} within ${timeoutMs} ms:\n${server.output()}`);
}

export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Kills whatever of the server's process group is left and removes its data directory. */
export function removeDevServer(server: DevServer): void {
  try {
    process.kill(-server.process.pid!, "SIGKILL");
  } catch {
    // already gone
  }
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

/**
 * The dev server compiles a page's scripts on first use: until React has hydrated, a click does
 * nothing and a form would submit natively. React marks the elements it has hydrated.
 */
export async function waitForHydration(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (css) => {
      const element = document.querySelector(css);
      return !!element && Object.keys(element).some((key) => key.startsWith("__reactProps"));
    },
    selector,
    { timeout: 120_000 },
  );
}
