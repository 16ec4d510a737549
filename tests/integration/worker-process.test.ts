import { spawn, type ChildProcess } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { invoices } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { enqueue, getBoss, jobsSchema } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference } from "./helpers/invoice-fixtures";

/**
 * `npm run worker` (scripts/worker.ts) runs the job workers alone, no HTTP, against
 * DATABASE_URL; app instances then run with JOBS_WORKERS=off. On PostgreSQL the test starts the real
 * process, queues a job from here (as an app instance would), sees the worker do it, and stops the
 * worker with SIGTERM (exit 0). On the embedded pass: the worker refuses to start without
 * DATABASE_URL, since only one process may open DATA_DIR.
 */
const t = setUpTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);

type Worker = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

function startWorker(env: Record<string, string | undefined>): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", "--import", "./scripts/register-server-only.mjs", "scripts/worker.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, worker?: Worker): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${worker ? `\nworker output:\n${worker.output()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});

const running: Worker[] = [];
afterAll(async () => {
  for (const worker of running) if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
});

if (onPostgres) {
  describe("npm run worker on PostgreSQL", () => {
    it("runs a job an app instance queued, and on SIGTERM finishes and exits 0", async () => {
      const m = await invoiceMerchant(t.db);
      await connect(t.db, m.merchantId, "provider-a", "h2h");
      const body = templateEnvelope(findTemplate("a-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
        data: { attributes: Record<string, unknown> };
      };
      body.data.attributes.options = {};
      body.data.attributes.test_mode = true;
      const created = await createInvoice(t.db, m.merchant, "payment", body);
      if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
      const invoiceId = created.invoice.id;
      // Its lifetime has passed: the expiry job, once a worker takes it, expires it.
      await t.db
        .update(invoices)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(invoices.id, invoiceId));
      const jobId = await enqueue(t.db, "invoice-expire", { invoiceId });
      expect(jobId).toBeTruthy();

      // JOBS_WORKERS=off is what app instances set; the worker process runs its workers anyway.
      const worker = startWorker({ JOBS_WORKERS: "off", SHUTDOWN_DRAIN_MS: "5000" });
      running.push(worker);
      await until("the worker to start", async () => (worker.output().includes("worker running") ? true : undefined), 60_000, worker);

      const boss = await getBoss(t.db);
      const state = await until(
        "the job to complete",
        async () => {
          const { rows } = await boss.getDb().executeSql(`select state from ${jobsSchema()}.job where id = $1`, [jobId]);
          const value = (rows as { state: string }[])[0]?.state;
          return value === "completed" ? value : undefined;
        },
        30_000,
        worker,
      );
      expect(state).toBe("completed");
      const [row] = await t.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, invoiceId));
      expect(row?.status).toBe("expired");

      worker.child.kill("SIGTERM");
      const code = await Promise.race([worker.exited, new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 15_000))]);
      expect(code, worker.output()).toBe(0);
      expect(worker.output()).toContain('"message":"worker stopped"');
      expect(worker.output()).not.toMatch(/"level":"error"/);
      // Its own waits (start 60 s, the job 30 s, the exit 15 s) bound it, not the files' 30 s:
      // starting a second Node process under tsx took over 30 s once on a loaded CI machine.
    }, 120_000);
  });
}

if (!onPostgres) {
  describe("npm run worker on the embedded database", () => {
    it("refuses to start without DATABASE_URL, saying why", async () => {
      const worker = startWorker({ DATABASE_URL: "" });
      running.push(worker);
      expect(await worker.exited).toBe(1);
      expect(worker.output()).toContain("Cannot start the worker: npm run worker needs DATABASE_URL (PostgreSQL)");
      // The test database stays usable: the worker opened nothing.
      expect(t.kind).toBe("pglite");
    });
  });
}
