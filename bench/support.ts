// What several benches share: the production app server started the way `npm start` runs it (each
// in its own process group, so SIGTERM reaches tsx and the server under npx), and the payment
// invoice the benches create.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";

type AppServerOptions = {
  port: number;
  /** Settings for this server on top of the bench's own environment (DATA_DIR, DATABASE_URL, …). */
  env: Record<string, string>;
  /** The checkout whose build to serve (default: this one). */
  cwd?: string;
  startTimeoutMs?: number;
};

/** Starts `server.ts` (production build) on 127.0.0.1 and resolves once /sign-in answers. */
export function startAppServer({ port, env, cwd, startTimeoutMs = 120_000 }: AppServerOptions): Promise<ChildProcess> {
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn("npx", ["tsx", "--import", "./scripts/register-server-only.mjs", "server.ts"], {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      NODE_ENV: "production",
      AUTH_SECRET: "bench-only-secret-0123456789abcdef0123456789",
      APP_URL: origin,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + startTimeoutMs;
    const poll = async () => {
      try {
        if ((await fetch(`${origin}/sign-in`)).ok) return resolve(child);
      } catch {}
      if (Date.now() > deadline) {
        // Not left running: a later bench would find its port taken, or talk to it instead of its own.
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {}
        return reject(new Error("server did not start"));
      }
      setTimeout(poll, 300);
    };
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
    void poll();
  });
}

/**
 * Whether any process of the server's group (npx, tsx, node server.ts) is still running: `detached`
 * made the child the leader of its own session and group. A zombie (exited, not yet reaped by
 * whoever adopted it) no longer runs and holds nothing.
 */
function groupRunning(pid: number): boolean {
  try {
    const states = execFileSync("ps", ["-o", "stat=", "-g", String(pid)], { encoding: "utf8" });
    return states.split("\n").some((state) => state.trim() !== "" && !state.trim().startsWith("Z"));
  } catch {
    return false; // ps exits 1 when nothing matches
  }
}

/**
 * SIGTERM to the server's process group (it drains: requests in flight, then the job workers), SIGKILL
 * after 10 s; resolves once no process of the group runs. The npx parent exits as soon as it has
 * passed the signal on, long before server.ts has finished draining, so its exit is not the
 * server's: a caller that drops the server's database next would pull it out from under the drain.
 */
export async function stopAppServer(child: ChildProcess): Promise<void> {
  child.removeAllListeners("exit");
  const pid = child.pid!;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return; // the group is gone already
  }
  const killAt = Date.now() + 10_000;
  let killed = false;
  while (groupRunning(pid)) {
    if (!killed && Date.now() > killAt) {
      killed = true;
      try {
        process.kill(-pid, "SIGKILL");
      } catch {}
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A test-mode hosted-page payment (EUR, `payment_card_eur_hpp`) for the merchant's commerce
 * account, with a fresh reference; `attributes` override or add to these.
 */
export function paymentInvoice(account: string, attributes: Record<string, unknown> = {}) {
  return {
    data: {
      type: "payment-invoice",
      attributes: {
        service: "payment_card_eur_hpp",
        commerce_account: account,
        currency: "EUR",
        amount: "100.50",
        reference_id: randomUUID(),
        flow: "charge",
        test_mode: true,
        options: { allow_partially: false },
        customer: { name: "Ada Lovelace", email: "ada@example.com", address: { country: "GB", city: "London" } },
        ...attributes,
      },
    },
  };
}

/** The same as the JSON text the API benches send. */
export function paymentBody(account: string): string {
  return JSON.stringify(paymentInvoice(account));
}

/**
 * Holds an flock(1) lock on `file` (e.g. /tmp/bench.lock) until the returned function is called:
 * flock keeps the lock (-o: its shell does not inherit it) while the shell waits, and ends when killed.
 */
export async function holdLock(file: string | undefined): Promise<() => void> {
  if (!file) return () => {};
  const child = spawn("flock", ["-o", file, "-c", "echo locked; read _"], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
    child.on("error", reject);
  });
  return () => {
    child.kill("SIGTERM");
    child.stdin.end();
  };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * What a benchmark's table must say about the run it came from: the commit, the database, and the
 * machine's one-minute load average at start and end, with a warning when the machine was already
 * busy (a load above 1 on this 2-core kind means other work shared the cores: compare ratios within
 * the run, not figures across runs).
 */
export type RunConditions = { commit: string; database: string; loadAtStart: number; loadAtEnd?: number };

export function startRunConditions(database: string): RunConditions {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
    if (dirty) commit += " (with uncommitted changes)";
  } catch {
    // Not a git checkout: the table says "unknown".
  }
  return { commit, database, loadAtStart: os.loadavg()[0]! };
}

export function describeRunConditions(conditions: RunConditions): string {
  const end = conditions.loadAtEnd ?? os.loadavg()[0]!;
  const lines = [
    `commit ${conditions.commit}, ${conditions.database}, ${os.cpus().length} cores, load average ${conditions.loadAtStart.toFixed(2)} at start, ${end.toFixed(2)} at end`,
  ];
  if (conditions.loadAtStart > 1)
    lines.push(`WARNING: the machine was busy before the run (load ${conditions.loadAtStart.toFixed(2)} > 1): compare ratios within this run only.`);
  return lines.join("\n");
}
