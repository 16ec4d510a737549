import "server-only";
import type { Db } from "@/lib/db/client";
import { findConnectionRow } from "@/lib/connections/queries";
import type { ConnectionRow } from "@/lib/connections/store";
import type { InvoiceRow } from "@/lib/invoices/store";
import type { Mode } from "@/lib/providers";
import { logger } from "@/lib/logger";
import { getProviderServer } from "@/lib/providers/server/servers";
import type { AdapterContext, ProviderAdapter, ProviderOutcome } from "@/lib/providers/kit/adapter";
import { findAttemptOf, recordOutcome, startAttempt, type AttemptRow } from "./attempts";
import { MissingBaseUrlError, ModeMismatchError, adapterContextFor } from "./connection-context";
import { invoiceModeRefusal } from "@/lib/providers/kit/mode-guard";
import { createExchangeRecorder, type Exchange } from "@/lib/providers/kit/provider-http";
import type { AttemptTarget } from "./targets";

/** What the engine asks of the adapter for one attempt (create payment, create payout, …). */
export type ProviderCall = (adapter: ProviderAdapter, context: AdapterContext, attempt: AttemptRow) => Promise<ProviderOutcome>;

const unavailable = (message: string): ProviderOutcome => ({ kind: "soft_failed", resolution: "provider_unavailable", message });

/** An adapter that throws may have sent its request: treat it as an unknown outcome, never as a failure. */
async function callSafely(call: () => Promise<ProviderOutcome>): Promise<ProviderOutcome> {
  try {
    return await call();
  } catch (error) {
    logger.error("provider adapter threw", { error: error instanceof Error ? error.message : String(error) });
    return { kind: "unknown", message: "The provider call failed unexpectedly; its outcome is not known." };
  }
}

type StatusQuery = Parameters<ProviderAdapter["getStatus"]>[1];

/**
 * A status request. Its answers about the payment stand, soft failures included ("no record of
 * this request", 404: the provider never saw it, so another connection may take the invoice). But
 * a status request the provider could not take (not reachable, 429, 5xx) says nothing about the
 * payment it asks about, which may still have gone through: that stays unknown, for the next one.
 */
async function askStatus(
  adapter: ProviderAdapter,
  context: AdapterContext,
  query: StatusQuery,
  recorder: { list(): readonly Exchange[] },
): Promise<ProviderOutcome> {
  const before = recorder.list().length;
  const outcome = await callSafely(() => adapter.getStatus(context, query));
  if (outcome.kind !== "soft_failed" || outcome.resolution !== "provider_unavailable") return outcome;
  const last = recorder.list().slice(before).at(-1);
  const unavailable = last !== undefined && (last.status === null || last.status === 429 || last.status >= 500);
  if (!unavailable) return outcome;
  return {
    kind: "unknown",
    providerReference: outcome.providerReference,
    message: `The status request could not be answered (${outcome.message}); asking again later.`,
  };
}

export type Prepared = { adapter: ProviderAdapter; context: AdapterContext } | { failure: ProviderOutcome };

const modeMismatch = (message: string): ProviderOutcome => ({ kind: "soft_failed", resolution: "mode_mismatch", message });

/**
 * The adapter and its context for one call about `invoice`, or why nothing may be sent: the
 * connection is gone, its mode is not the invoice's, or its address is not its mode's.
 */
export async function prepare(
  db: Db,
  invoice: Pick<InvoiceRow, "testMode">,
  connection: ConnectionRow | undefined,
  recorder: ReturnType<typeof createExchangeRecorder>,
): Promise<Prepared> {
  if (!connection) return { failure: unavailable("The connection no longer exists.") };
  const wrongMode = invoiceModeRefusal(invoice.testMode, connection.mode as Mode);
  if (wrongMode) return { failure: modeMismatch(wrongMode) };
  const server = getProviderServer(connection.provider);
  if (!server) return { failure: unavailable(`No adapter for ${connection.provider} yet.`) };
  try {
    return { adapter: server.adapter, context: await adapterContextFor(db, connection, recorder) };
  } catch (error) {
    // Nothing was sent: no live URL configured, an address outside the connection's mode, or credentials the vault cannot open.
    if (error instanceof MissingBaseUrlError) return { failure: unavailable(error.message) };
    if (error instanceof ModeMismatchError) return { failure: modeMismatch(error.message) };
    logger.error("connection credentials could not be read", { connectionId: connection.id, error: error instanceof Error ? error.name : "unknown" });
    return { failure: { kind: "soft_failed", resolution: "provider_auth_error", message: "The connection's credentials could not be read." } };
  }
}

/**
 * One attempt against one connection: the attempt row (in flight), the provider call, and, when
 * the outcome is unknown (sent, no answer), at once one status request with the same idempotency
 * key, whose answer decides. `secrets` (the full card number) are redacted from every exchange.
 */
export async function runAttempt(
  db: Db,
  invoice: InvoiceRow,
  target: AttemptTarget & { seq: number },
  call: ProviderCall,
  secrets: readonly string[],
  options: { threeDsRequested?: boolean } = {},
): Promise<{ attempt: AttemptRow; outcome: ProviderOutcome }> {
  const attempt = await startAttempt(db, {
    invoiceId: invoice.id,
    seq: target.seq,
    connectionId: target.connectionId,
    reason: target.reason,
    threeDsRequested: options.threeDsRequested === true,
  });
  const recorder = createExchangeRecorder(secrets);
  const prepared = await prepare(db, invoice, await findConnectionRow(db, invoice.merchantId, target.connectionId), recorder);
  let outcome: ProviderOutcome;
  let latencyMs: number | undefined;
  if ("failure" in prepared) outcome = prepared.failure;
  else {
    const { adapter, context } = prepared;
    outcome = await callSafely(() => call(adapter, context, attempt));
    // The provider's latency for this attempt: its own call's exchanges (a status request after it is not counted).
    const sent = recorder.list();
    if (sent.length > 0) latencyMs = Math.round(sent.reduce((sum, exchange) => sum + exchange.durationMs, 0));
    if (outcome.kind === "unknown") {
      const providerReference = outcome.providerReference;
      const query = { providerReference, idempotencyKey: attempt.idempotencyKey, direction: invoice.direction };
      outcome = await askStatus(adapter, context, query, recorder);
      if (outcome.kind !== "unknown") outcome = { ...outcome, providerReference: outcome.providerReference ?? providerReference } as ProviderOutcome;
    }
  }
  // Lost only if the crash sweep took this attempt over meanwhile; its status request then decides.
  const recorded = (await recordOutcome(db, attempt, outcome, recorder.list(), { latencyMs })) ?? (await findAttemptOf(db, invoice.id, attempt.id)) ?? attempt;
  return { attempt: recorded, outcome };
}

/**
 * One status request for an open attempt, without writing anything: the outcome and this call's
 * exchanges (already redacted), for the caller to apply (applyAttemptOutcome) or record. A
 * connection that can no longer be called is an unknown outcome: nothing was learnt.
 */
export async function queryAttemptStatus(
  db: Db,
  invoice: InvoiceRow,
  attempt: AttemptRow,
): Promise<{ outcome: ProviderOutcome; exchanges: ReturnType<ReturnType<typeof createExchangeRecorder>["list"]> }> {
  const recorder = createExchangeRecorder();
  const prepared = await prepare(db, invoice, await findConnectionRow(db, invoice.merchantId, attempt.connectionId), recorder);
  const outcome =
    "failure" in prepared
      ? ({ kind: "unknown", message: prepared.failure.kind === "soft_failed" ? prepared.failure.message : "unreachable" } as const)
      : await askStatus(
          prepared.adapter,
          prepared.context,
          { providerReference: attempt.providerReference ?? undefined, idempotencyKey: attempt.idempotencyKey, direction: invoice.direction },
          recorder,
        );
  return { outcome, exchanges: recorder.list() };
}
