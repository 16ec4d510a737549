import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The process's metrics, scraped at `GET /metrics` (lib/metrics/endpoint.ts, docs/deploy.md
 * "Watching it"). Every label value is bounded: route templates, provider slugs, the value sets of
 * lib/db/enums.ts, limiter names, queue names. Never an id, an e-mail, an amount or a raw path, so
 * no merchant's data reaches the scraper and the series stay few.
 *
 * Kept on globalThis: Next's bundled copy of this module and server.ts's copy (run by tsx) must
 * count into the same series, and prom-client refuses a second metric of one name on a registry.
 */
function createMetrics() {
  const registry = new Registry();
  // Event-loop lag (nodejs_eventloop_lag_*), memory (process_resident_memory_bytes, nodejs_heap_*), CPU, handles, GC.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "http_requests_total",
      help: "Requests answered, by route template, method and status code.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival until its answer was written, by route template, method and status code.",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    providerDuration: new Histogram({
      name: "provider_request_duration_seconds",
      help: "Requests to providers (callProvider): duration by provider, mode and outcome (http_2xx… or not_sent, timed_out, garbled).",
      labelNames: ["provider", "mode", "outcome"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers,
    }),
    attemptOutcomes: new Counter({
      name: "payment_attempt_outcomes_total",
      help: "Attempts as they settle or change status, by attempt status and reason (resolution; none while none is known).",
      labelNames: ["status", "reason"] as const,
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "rate_limit_refusals_total",
      help: "Requests refused by a limit, by limit (api_key, api_merchant, api_address, or a named limiter such as sign-in:address).",
      labelNames: ["limit"] as const,
      registers,
    }),
    requestLogDropped: new Counter({
      name: "request_log_dropped_total",
      help: "Request log entries dropped unwritten: the buffer was full (the database was away), oldest first.",
      registers,
    }),
    webhookLag: new Histogram({
      name: "webhook_delivery_lag_seconds",
      help: "Automatic webhook tries: time from the event until this try's answer, by outcome (delivered or failed).",
      labelNames: ["outcome"] as const,
      buckets: [0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600],
      registers,
    }),
    jobsDepth: new Gauge({
      name: "jobs_queue_depth",
      help: "Jobs still to run, by queue and state (created, retry, active), read at scrape time.",
      labelNames: ["queue", "state"] as const,
      registers,
    }),
    jobsOldestDue: new Gauge({
      name: "jobs_queue_oldest_due_seconds",
      help: "How long the oldest job that is due (created or retry, start time passed) has waited to be taken, by queue; 0 when none waits.",
      labelNames: ["queue"] as const,
      registers,
    }),
    dbPoolMax: new Gauge({
      name: "db_pool_max_connections",
      help: "Connections this process may open to the database: the postgres.js pool's max, or 1 for the embedded PGlite.",
      labelNames: ["driver"] as const,
      registers,
    }),
    dbRoundTrip: new Gauge({
      name: "db_round_trip_seconds",
      help: "One `select 1` at scrape time, waiting for a free pool connection included: grows when the pool is saturated.",
      registers,
    }),
    scrapeErrors: new Counter({
      name: "metrics_scrape_errors_total",
      help: "Scrape-time reads that failed or took too long (their gauges then keep their last values), by source.",
      labelNames: ["source"] as const,
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof createMetrics>;
const shared = globalThis as unknown as { __metrics?: Metrics };

export function metrics(): Metrics {
  return (shared.__metrics ??= createMetrics());
}
