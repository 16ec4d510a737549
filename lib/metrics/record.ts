import { metrics } from "./registry";

/**
 * What the rest of lib/ tells the metrics, one call each where the thing happens. Arguments are
 * bounded values only (a provider slug, a status of lib/db/enums.ts, a limiter's name): never an id.
 */

/** A `callProvider` request and its end: `outcome` is `http_<class>xx`, `not_sent`, `timed_out` or `garbled`. */
export function recordProviderCall(provider: string, mode: string, outcome: string, durationMs: number): void {
  metrics()
    .providerDuration.labels(provider, mode, outcome)
    .observe(durationMs / 1000);
}

/** An attempt written with a new status, and its resolution (the decline reason) when it has one. */
export function recordAttemptOutcome(status: string, reason: string | null): void {
  metrics()
    .attemptOutcomes.labels(status, reason ?? "none")
    .inc();
}

/** A request a limit refused. */
export function recordRateLimitRefusal(limit: string): void {
  metrics().rateLimitRefusals.labels(limit).inc();
}

/** An automatic webhook try answered (or failed): how long after its event. */
export function recordWebhookTry(delivered: boolean, eventCreatedAt: Date, now = Date.now()): void {
  metrics()
    .webhookLag.labels(delivered ? "delivered" : "failed")
    .observe(Math.max(0, now - eventCreatedAt.getTime()) / 1000);
}

/** Request log entries dropped because the buffer was full (lib/request-log/writer.ts). */
export function recordRequestLogDropped(count: number): void {
  metrics().requestLogDropped.inc(count);
}
