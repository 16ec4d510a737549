import { describe, expect, it } from "vitest";
import { getBoss, enqueue, jobIdFor, jobsSchema, runDueJobs, stopJobs } from "@/lib/jobs/queue";
import type { JobName } from "@/lib/jobs/names";
import { defineTask, type AnyJobTask } from "@/lib/jobs/task";
import { setUpTestDb } from "./helpers/db";

const test = setUpTestDb();

function recordingTasks(seen: string[], fail = new Set<string>()): AnyJobTask[] {
  const handler = async (_db: unknown, data: { invoiceId?: string }) => {
    seen.push(String(data.invoiceId));
    if (fail.has(String(data.invoiceId))) throw new Error("receiver refused");
  };
  const names: JobName[] = ["invoice-reconcile", "invoice-expire", "payout-process", "webhook-deliver", "sandbox-callback"];
  return names.map((name) => defineTask(name, handler as never)) as AnyJobTask[];
}

async function jobRow(id: string) {
  const boss = await getBoss(test.db);
  const { rows } = await boss.getDb().executeSql(`select state, retry_count, start_after from ${jobsSchema()}.job where id = $1`, [id]);
  return rows[0] as { state: string; retry_count: number; start_after: Date } | undefined;
}

describe("job queue (pg-boss over the test database)", () => {
  it("runs a due job once; the same key queues one job however often it is sent", async () => {
    const first = await enqueue(test.db, "invoice-expire", { invoiceId: "cpi_once" }, { key: "cpi_once" });
    const second = await enqueue(test.db, "invoice-expire", { invoiceId: "cpi_once" }, { key: "cpi_once" });
    expect(first).toBe(jobIdFor("invoice-expire", "cpi_once"));
    expect(second).toBeNull();
    const seen: string[] = [];
    expect(await runDueJobs(test.db, recordingTasks(seen))).toBe(1);
    expect(seen).toEqual(["cpi_once"]);
    expect((await jobRow(first!))?.state).toBe("completed");
    expect(await runDueJobs(test.db, recordingTasks(seen))).toBe(0);
  });

  it("does not run a job before its time", async () => {
    const id = await enqueue(test.db, "invoice-expire", { invoiceId: "cpi_later" }, { startAfter: 3600 });
    const seen: string[] = [];
    await runDueJobs(test.db, recordingTasks(seen));
    expect(seen).not.toContain("cpi_later");
    expect((await jobRow(id!))?.state).toBe("created");
  });

  it("retries a failing job later, with backoff, instead of losing it", async () => {
    const id = await enqueue(test.db, "invoice-reconcile", { invoiceId: "cpi_fails", attemptId: "att_x", step: 0 });
    const seen: string[] = [];
    await runDueJobs(test.db, recordingTasks(seen, new Set(["cpi_fails"])), { names: ["invoice-reconcile"] });
    expect(seen).toEqual(["cpi_fails"]);
    const row = await jobRow(id!);
    expect(row?.state).toBe("retry");
    // Not retried at once: the next try waits (5 s, doubling), so a failing receiver is not hammered.
    expect(new Date(row!.start_after).getTime()).toBeGreaterThan(Date.now() + 2_000);
  });

  it("keeps queued jobs when the queue stops and starts again (they live in the database)", async () => {
    const id = await enqueue(test.db, "payout-process", { invoiceId: "cpoi_kept", afterAttemptId: "att_1" });
    await stopJobs(test.db);
    const seen: string[] = [];
    expect(await runDueJobs(test.db, recordingTasks(seen), { names: ["payout-process"] })).toBe(1);
    expect(seen).toEqual(["cpoi_kept"]);
    expect((await jobRow(id!))?.state).toBe("completed");
  });
});
