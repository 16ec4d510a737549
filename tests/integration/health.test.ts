import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import type { Db } from "@/lib/db/client";
import { checkHealth } from "@/lib/service-status/checks";
import { logger } from "@/lib/logger";
import { jobWorkersState, startJobWorkers, stopJobs } from "@/lib/jobs/queue";
import { setAppDb } from "./helpers/app-db";
import { setUpTestDb } from "./helpers/db";

/**
 * `GET /api/health` tells a load balancer whether this instance can serve (the
 * database answers) and work (the job queue answers, this process's workers started unless
 * JOBS_WORKERS=off). 200 / 503, never cached, an X-Request-Id like every API answer, no
 * authentication and nothing that names a host or an error's text.
 */
const t = setUpTestDb();

const previousWorkers = process.env.JOBS_WORKERS;
beforeEach(() => {
  vi.spyOn(logger, "warn").mockImplementation(() => {});
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  setAppDb(t.db);
  if (previousWorkers === undefined) delete process.env.JOBS_WORKERS;
  else process.env.JOBS_WORKERS = previousWorkers;
  await stopJobs(t.db);
});

type Report = { status: string; checks: Record<string, Record<string, unknown>> };

const get = (headers: Record<string, string> = {}) => healthRoute.GET(new Request("http://test/api/health", { headers }));

describe("GET /api/health", () => {
  it("answers 200 when the database and the queue answer and this process's workers run", async () => {
    await startJobWorkers(t.db, [], []);
    expect(jobWorkersState()).toBe("running");

    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const body = (await response.json()) as Report;
    expect(body).toEqual({
      status: "ok",
      checks: {
        database: { status: "ok", kind: t.kind === "postgres" ? "postgresql" : "embedded", duration_ms: expect.any(Number) },
        jobs: { status: "ok", workers: "running", duration_ms: expect.any(Number) },
      },
    });
  });

  it("keeps the caller's own X-Request-Id, needs no credentials, and HEAD answers the same status without a body", async () => {
    process.env.JOBS_WORKERS = "off";
    const response = await get({ "x-request-id": "probe-42" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("probe-42");
    expect(((await response.json()) as Report).checks.jobs).toMatchObject({ status: "ok", workers: "off" });

    const head = await healthRoute.HEAD(new Request("http://test/api/health", { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(head.headers.get("cache-control")).toBe("no-store");
    expect(head.headers.get("x-request-id")).toBeTruthy();
    expect(await head.text()).toBe("");
  });

  it("answers 503 when this process should run workers and they have not started (starting, stopping)", async () => {
    delete process.env.JOBS_WORKERS;
    expect(jobWorkersState()).toBe("not_started");
    const response = await get();
    expect(response.status).toBe(503);
    const body = (await response.json()) as Report;
    expect(body.status).toBe("unavailable");
    expect(body.checks.database!.status).toBe("ok");
    expect(body.checks.jobs).toMatchObject({ status: "unavailable", workers: "not_started" });
  });

  it("answers 503 when the database cannot be reached, naming no error text", async () => {
    process.env.JOBS_WORKERS = "off";
    setAppDb(undefined); // getDb() now throws with a message of its own
    const response = await get();
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      status: "unavailable",
      checks: {
        database: { status: "unavailable", error: "failed", duration_ms: expect.any(Number) },
        jobs: { status: "unavailable", error: "failed", duration_ms: expect.any(Number) },
      },
    });
    expect(text).not.toMatch(/not open|setUpTestDb/);
    // The reason goes to the operator's log instead.
    expect(logger.warn).toHaveBeenCalledWith("health check failed", expect.objectContaining({ check: "database" }));
  });

  it("refuses other methods with a JSON:API 405 naming GET and HEAD", async () => {
    const response = await healthRoute.POST(new Request("http://test/api/health", { method: "POST" }), { params: Promise.resolve({}) });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("checkHealth", () => {
  it("gives up on a check that hangs after the timeout and reports it as a timeout", async () => {
    const hanging = () => new Promise<Db>(() => {});
    const started = Date.now();
    const report = await checkHealth({ db: hanging, workers: () => "off", timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(report).toEqual({
      status: "unavailable",
      checks: {
        database: { status: "unavailable", error: "timeout", duration_ms: expect.any(Number) },
        jobs: { status: "unavailable", error: "timeout", duration_ms: expect.any(Number) },
      },
    });
  });

  it("fails the jobs check alone when the queue's own connection fails, without its message (which may name a host)", async () => {
    const report = await checkHealth({
      db: async () => t.db,
      workers: () => "running",
      queuePing: async () => {
        throw new Error("connect ECONNREFUSED db-primary.internal.example:5432");
      },
    });
    expect(report.status).toBe("unavailable");
    expect(report.checks.database.status).toBe("ok");
    expect(report.checks.jobs).toEqual({ status: "unavailable", error: "failed", duration_ms: expect.any(Number) });
    expect(JSON.stringify(report)).not.toContain("internal.example");
  });
});
