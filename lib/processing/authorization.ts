import "server-only";
import { and, asc, desc, eq, inArray, lte, not, sql } from "drizzle-orm";
import { findConnectionIncludingDeleted, findConnectionRow } from "@/lib/connections/queries";
import type { Db } from "@/lib/db/client";
import type { Resolution } from "@/lib/db/enums";
import { connections, invoiceAttempts, invoices } from "@/lib/db/schema";
import { recordInvoiceEvent, type RecordedEvent } from "@/lib/invoices/events";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import { changeInvoiceStatusWithin, queueEventDelivery, queueStatusEvent, StaleInvoiceStatusError, type StatusChange } from "@/lib/invoices/status";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { enqueue, queuedJobExistsSql } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { formatMinor, parseAmount } from "@/lib/money";
import { problem, type Problem } from "@/lib/problems";
import type { Mode } from "@/lib/providers";
import { capabilitiesOf } from "@/lib/providers/capabilities";
import type { CaptureOutcome, VoidOutcome } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { providerTimeoutMs } from "@/lib/providers/kit/timeout";
import { refundSweepGraceSeconds } from "@/lib/retry-schedules";
import { prepare, type Prepared } from "./run-attempt";

/**
 * Authorize now, capture later. A payment of `flow: "authorize"` is `authorized` after
 * Pay: the provider reserved `authorized_amount` until `capture_before`. Then one capture
 * (`POST …/{id}/capture`, all or, where the provider can, part: the rest is released) makes it
 * `processed` or `partially_processed`, or a void (`POST …/{id}/void`, or the sweep once
 * `capture_before` has passed) makes it `voided`, nothing taken.
 *
 * A capture or void first moves the invoice to `capturing` or `voiding` with a conditional update
 * in one transaction (the row is held until the commit): of two captures, or a capture and a void,
 * sent at once, only one finds it `authorized`; the other is refused 409. An answer the provider
 * did not give (timeout) leaves it `capturing` or `voiding`, asked about by status requests
 * (`authorization-reconcile`) until it settles. Events: `invoice.authorized`, `invoice.captured`,
 * `invoice.voided`, each in the transaction of its status change.
 */
export const INVOICE_AUTHORIZED = "invoice.authorized";
export const INVOICE_CAPTURED = "invoice.captured";
export const INVOICE_VOIDED = "invoice.voided";

/** Where a provider declares no limit: a week, as the sandboxes hold an authorization. */
const DEFAULT_HOLD_HOURS = 168;

/** The status requests' schedule for a capture or void without an answer, in seconds after the call. */
const RECONCILE_STEPS_SECONDS = [5, 30, 120, 600, 3600] as const;

const captureKey = (invoiceId: string) => `${invoiceId}-capture`;
const voidKey = (invoiceId: string) => `${invoiceId}-void`;
const money = (minor: bigint, currency: string) => `${formatMinor(minor, currency)} ${currency}`;

async function providerOfConnection(db: Db, connectionId: string | null): Promise<string | undefined> {
  if (!connectionId) return undefined;
  const [row] = await db.select({ provider: connections.provider }).from(connections).where(eq(connections.id, connectionId)).limit(1);
  return row?.provider;
}

async function commitWithEvent(
  db: Db,
  work: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => Promise<{ change: StatusChange; event: RecordedEvent }>,
): Promise<InvoiceRow> {
  const done = await db.transaction(work);
  await queueStatusEvent(db, done.change);
  await queueEventDelivery(db, done.change.row.id, done.event);
  return done.change.row;
}

/**
 * The provider authorized the payment: `authorized` with what it reserved and until when (the
 * provider's own limit from its folder, or what it said, whichever is sooner), and
 * `invoice.authorized`, in one transaction.
 */
export async function settleAuthorized(db: Db, invoice: InvoiceRow, authorizedMinor: bigint, until: Date | undefined, reason: string): Promise<InvoiceRow> {
  const provider = await providerOfConnection(db, invoice.connectionId);
  const holdHours = (provider && capabilitiesOf(provider).authorizationHoldHours) || DEFAULT_HOLD_HOURS;
  const limit = new Date(Date.now() + holdHours * 3_600_000);
  const captureBefore = until && until < limit ? until : limit;
  return commitWithEvent(db, async (tx) => {
    await tx.update(invoices).set({ authorizedAmountMinor: authorizedMinor, captureBefore }).where(eq(invoices.id, invoice.id));
    const change = await changeInvoiceStatusWithin(tx, invoice, "authorized", "ok", { reason });
    return { change, event: await recordInvoiceEvent(tx, change.row, INVOICE_AUTHORIZED) };
  });
}

export type AuthorizationResult =
  | { kind: "done"; invoice: InvoiceRow; /** The provider did not answer yet: status requests follow. */ pending: boolean }
  | { kind: "not_found" }
  | { kind: "test_only" }
  | { kind: "invalid"; problems: Problem[] }
  | { kind: "refused"; status: 409 | 502; code: string; detail: string };

export type AuthorizationCaller = {
  testOnly: boolean;
  /** An API key's mode: an invoice of the other mode is not found. */
  mode?: Mode;
  /** The request's Idempotency-Key: the same key again answers with the invoice as the first request left it. */
  idempotencyKey?: string;
};

/** The authorization as the provider knows it: the successful attempt's reference and key. */
async function authorizationOf(db: Db, invoiceId: string) {
  const [attempt] = await db
    .select({
      providerReference: invoiceAttempts.providerReference,
      idempotencyKey: invoiceAttempts.idempotencyKey,
      connectionId: invoiceAttempts.connectionId,
    })
    .from(invoiceAttempts)
    .where(and(eq(invoiceAttempts.invoiceId, invoiceId), eq(invoiceAttempts.status, "succeeded")))
    .orderBy(desc(invoiceAttempts.seq))
    .limit(1);
  return attempt;
}

/** Why an invoice that is not `authorized` cannot be captured or voided now, in the caller's words. */
function notAuthorized(invoice: InvoiceRow, verb: "capture" | "void"): { code: string; detail: string } {
  if (invoice.flow !== "authorize")
    return { code: "not_authorized", detail: `This payment was a charge (flow "charge"): there is no authorization to ${verb}.` };
  switch (invoice.status) {
    case "capturing":
      return { code: "authorization_busy", detail: "A capture of this payment is already in progress." };
    case "voiding":
      return { code: "authorization_busy", detail: "A void of this payment is already in progress." };
    case "voided":
      return { code: "authorization_voided", detail: "This authorization was voided; nothing can be captured." };
    case "processed":
    case "partially_processed":
    case "refunding":
    case "refunded":
    case "partially_refunded":
      return {
        code: "already_captured",
        detail: `This payment was already captured (${money(invoice.processedAmountMinor ?? 0n, invoice.currency)}); a payment is captured once.`,
      };
    default:
      return {
        code: "not_authorized",
        detail: `A payment that is ${invoice.status.replaceAll("_", " ")} has no authorization to ${verb}; it must be authorized first (Pay).`,
      };
  }
}

async function loadForCaller(
  db: Db,
  merchantId: string,
  id: string,
  caller: AuthorizationCaller,
): Promise<InvoiceRow | Extract<AuthorizationResult, { kind: "not_found" | "test_only" }>> {
  const found = await getInvoice(db, merchantId, "payment", id, caller.mode);
  if (!found) return { kind: "not_found" };
  const invoice = await readInvoice(db, found.id);
  if (!invoice) return { kind: "not_found" };
  if (caller.testOnly && !invoice.testMode) return { kind: "test_only" };
  return invoice;
}

/** A request repeated with the Idempotency-Key of the one that took the authorization: answered with the invoice as it is now. */
function replayed(invoice: InvoiceRow, caller: AuthorizationCaller, verb: "capture" | "void"): AuthorizationResult | undefined {
  if (!caller.idempotencyKey || invoice.authorizationRequestKey !== caller.idempotencyKey) return undefined;
  const moving = verb === "capture" ? ["capturing", "processed", "partially_processed", "refunding", "refunded", "partially_refunded"] : ["voiding", "voided"];
  return moving.includes(invoice.status) ? { kind: "done", invoice, pending: invoice.status === "capturing" || invoice.status === "voiding" } : undefined;
}

/**
 * Takes the authorization for one capture or void: `authorized` → `capturing`/`voiding` in one
 * transaction whose first statement is a conditional update (`… where status = 'authorized'`): it
 * holds the row, so a second taker waits and then finds it moved. Undefined: someone else took it.
 */
async function take(
  db: Db,
  invoice: InvoiceRow,
  to: "capturing" | "voiding",
  values: { captureAmountMinor?: bigint; key?: string },
  reason: string,
): Promise<InvoiceRow | undefined> {
  try {
    const change = await db.transaction(async (tx) => {
      const [held] = await tx
        .update(invoices)
        .set({
          authorizationRequestKey: values.key ?? null,
          ...(values.captureAmountMinor !== undefined ? { captureAmountMinor: values.captureAmountMinor } : {}),
        })
        .where(and(eq(invoices.id, invoice.id), eq(invoices.status, "authorized")))
        .returning({ id: invoices.id });
      if (!held) throw new StaleInvoiceStatusError(invoice.id, "authorized");
      return changeInvoiceStatusWithin(tx, invoice, to, undefined, { reason });
    });
    await queueStatusEvent(db, change);
    return change.row;
  } catch (error) {
    if (error instanceof StaleInvoiceStatusError) return undefined;
    throw error;
  }
}

type Call<T> = { outcome: T; provider: string | undefined };
type Ready = Extract<Prepared, { adapter: unknown }>;

/** One provider call about the authorization, through the connection that authorized it, after the checks every call has. */
async function callAbout<T extends CaptureOutcome | VoidOutcome>(
  db: Db,
  invoice: InvoiceRow,
  sending: boolean,
  run: (adapter: Ready["adapter"], context: Ready["context"], authorization: { providerReference: string; idempotencyKey: string }) => Promise<T> | undefined,
): Promise<Call<T>> {
  const authorization = await authorizationOf(db, invoice.id);
  const connection = authorization
    ? sending
      ? await findConnectionRow(db, invoice.merchantId, authorization.connectionId)
      : await findConnectionIncludingDeleted(db, invoice.merchantId, authorization.connectionId)
    : undefined;
  const nothing = (message: string) => ({
    outcome: (sending ? { kind: "refused", message } : { kind: "unknown", message }) as T,
    provider: connection?.provider,
  });
  if (!authorization?.providerReference || !connection)
    return nothing(
      !connection
        ? "The connection that authorized this payment was deleted; nothing was sent."
        : "The authorization's provider record is not known; nothing was sent.",
    );
  const prepared = await prepare(db, invoice, connection, createExchangeRecorder());
  if ("failure" in prepared) return nothing("message" in prepared.failure ? prepared.failure.message : "The provider cannot be called.");
  try {
    const pending = run(prepared.adapter, prepared.context, {
      providerReference: authorization.providerReference,
      idempotencyKey: authorization.idempotencyKey,
    });
    if (!pending) return nothing(`${connection.provider} cannot be asked to do this.`);
    return { outcome: await pending, provider: connection.provider };
  } catch (error) {
    logger.error("provider adapter threw on an authorization call", { invoiceId: invoice.id, error: error instanceof Error ? error.message : String(error) });
    return { outcome: { kind: "unknown", message: "The provider call failed unexpectedly; its outcome is not known." } as T, provider: connection.provider };
  }
}

function sendCapture(db: Db, invoice: InvoiceRow, amountMinor: bigint) {
  return callAbout<CaptureOutcome>(db, invoice, true, (adapter, context, authorization) =>
    adapter.capture?.(context, {
      captureId: captureKey(invoice.id),
      invoiceId: invoice.id,
      paymentReference: authorization.providerReference,
      paymentKey: authorization.idempotencyKey,
      currency: invoice.currency,
      amount: formatMinor(amountMinor, invoice.currency),
      amountMinor,
    }),
  );
}

function askCapture(db: Db, invoice: InvoiceRow) {
  return callAbout<CaptureOutcome>(db, invoice, false, (adapter, context, authorization) =>
    adapter.getCaptureStatus?.(context, { captureId: captureKey(invoice.id), paymentReference: authorization.providerReference }),
  );
}

function sendVoid(db: Db, invoice: InvoiceRow) {
  return callAbout<VoidOutcome>(db, invoice, true, (adapter, context, authorization) =>
    adapter.voidAuthorization?.(context, {
      voidId: voidKey(invoice.id),
      invoiceId: invoice.id,
      paymentReference: authorization.providerReference,
      paymentKey: authorization.idempotencyKey,
    }),
  );
}

function askVoid(db: Db, invoice: InvoiceRow) {
  return callAbout<VoidOutcome>(db, invoice, false, (adapter, context, authorization) =>
    adapter.getVoidStatus?.(context, { voidId: voidKey(invoice.id), paymentReference: authorization.providerReference }),
  );
}

async function scheduleReconcile(db: Db, invoice: InvoiceRow, step: number, key = `${invoice.id}:authorization:${step}`, startAfter?: number): Promise<void> {
  const at = Math.min(step, RECONCILE_STEPS_SECONDS.length - 1);
  await enqueue(db, "authorization-reconcile", { invoiceId: invoice.id, step }, { startAfter: startAfter ?? RECONCILE_STEPS_SECONDS[at], key }).catch(
    (error: unknown) =>
      logger.error("authorization status request not queued", { invoiceId: invoice.id, error: error instanceof Error ? error.message : String(error) }),
  );
}

/** A capture's answer applied to the invoice (now `capturing`); undefined when it is still not known. */
async function applyCapture(db: Db, invoice: InvoiceRow, outcome: CaptureOutcome, reason: string): Promise<InvoiceRow | undefined> {
  if (outcome.kind === "unknown") return undefined;
  if (outcome.kind === "captured") {
    const to = outcome.capturedMinor >= invoice.amountMinor ? "processed" : "partially_processed";
    return commitWithEvent(db, async (tx) => {
      const change = await changeInvoiceStatusWithin(tx, invoice, to, "ok", { reason, processedAmountMinor: outcome.capturedMinor });
      return { change, event: await recordInvoiceEvent(tx, change.row, INVOICE_CAPTURED) };
    });
  }
  return commitWithEvent(db, async (tx) => {
    await tx.update(invoices).set({ captureAmountMinor: null, authorizationRequestKey: null }).where(eq(invoices.id, invoice.id));
    const change = await changeInvoiceStatusWithin(tx, invoice, "authorized", "ok", { reason: `capture not done: ${outcome.message}` });
    return { change, event: await recordInvoiceEvent(tx, change.row, INVOICE_AUTHORIZED) };
  });
}

/** A void's answer applied to the invoice (now `voiding`); undefined when it is still not known. */
async function applyVoid(
  db: Db,
  invoice: InvoiceRow,
  outcome: VoidOutcome,
  resolution: Extract<Resolution, "voided" | "authorization_expired">,
  reason: string,
): Promise<InvoiceRow | undefined> {
  if (outcome.kind === "unknown") return undefined;
  if (outcome.kind === "voided") {
    return commitWithEvent(db, async (tx) => {
      const change = await changeInvoiceStatusWithin(tx, invoice, "voided", resolution, { reason });
      return { change, event: await recordInvoiceEvent(tx, change.row, INVOICE_VOIDED) };
    });
  }
  return commitWithEvent(db, async (tx) => {
    await tx.update(invoices).set({ authorizationRequestKey: null }).where(eq(invoices.id, invoice.id));
    const change = await changeInvoiceStatusWithin(tx, invoice, "authorized", "ok", { reason: `void not done: ${outcome.message}` });
    return { change, event: await recordInvoiceEvent(tx, change.row, INVOICE_AUTHORIZED) };
  });
}

const AMOUNT = ["data", "attributes", "amount"];

/** `POST /api/commerce/payment-invoices/{id}/capture` and Capture on the invoice page. `amount` absent: all that was authorized. */
export async function captureInvoice(
  db: Db,
  merchantId: string,
  id: string,
  input: { amount?: string | number },
  caller: AuthorizationCaller,
): Promise<AuthorizationResult> {
  const loaded = await loadForCaller(db, merchantId, id, caller);
  if ("kind" in loaded) return loaded;
  const invoice = loaded;
  const replay = replayed(invoice, caller, "capture");
  if (replay) return replay;
  if (invoice.status !== "authorized" || invoice.authorizedAmountMinor === null) return { kind: "refused", status: 409, ...notAuthorized(invoice, "capture") };
  const authorized = invoice.authorizedAmountMinor;
  let amountMinor = authorized;
  if (input.amount !== undefined) {
    const parsed = parseAmount(input.amount, invoice.currency);
    if (!parsed.ok) return { kind: "invalid", problems: [problem("invalid_amount", parsed.message, AMOUNT)] };
    amountMinor = parsed.minor;
    if (amountMinor <= 0n) return { kind: "invalid", problems: [problem("invalid_amount", "amount must be more than zero", AMOUNT)] };
    if (amountMinor > authorized) {
      return {
        kind: "invalid",
        problems: [problem("exceeds_authorized", `amount may be at most the authorized ${money(authorized, invoice.currency)}`, AMOUNT)],
      };
    }
  }
  const provider = await providerOfConnection(db, invoice.connectionId);
  if (amountMinor < authorized && provider && !capabilitiesOf(provider).partialCapture) {
    return {
      kind: "invalid",
      problems: [
        problem(
          "partial_capture_not_offered",
          `This payment's provider captures only the whole authorization (${money(authorized, invoice.currency)}); leave amount out or send all of it`,
          AMOUNT,
        ),
      ],
    };
  }
  const taken = await take(
    db,
    invoice,
    "capturing",
    { captureAmountMinor: amountMinor, key: caller.idempotencyKey },
    `capture of ${money(amountMinor, invoice.currency)} asked for`,
  );
  if (!taken) {
    const now = (await readInvoice(db, invoice.id)) ?? invoice;
    return replayed(now, caller, "capture") ?? { kind: "refused", status: 409, ...notAuthorized(now, "capture") };
  }
  let { outcome } = await sendCapture(db, taken, amountMinor);
  // Sent without an answer: one status request at once, before the schedule.
  if (outcome.kind === "unknown") {
    const asked = (await askCapture(db, taken)).outcome;
    if (asked.kind === "captured" || asked.kind === "declined") outcome = asked;
  }
  const settled = await applyCapture(db, taken, outcome, "captured by the merchant");
  if (!settled) {
    await scheduleReconcile(db, taken, 0);
    return { kind: "done", invoice: taken, pending: true };
  }
  if (outcome.kind === "captured") return { kind: "done", invoice: settled, pending: false };
  return {
    kind: "refused",
    status: outcome.kind === "refused" ? 502 : 409,
    code: outcome.kind === "refused" ? "capture_refused" : "capture_declined",
    detail:
      `The provider did not capture it (${outcome.message}); the authorization of ${money(authorized, invoice.currency)} is still held. ${outcome.kind === "refused" ? "Try again." : ""}`.trim(),
  };
}

/** `POST /api/commerce/payment-invoices/{id}/void` and Void on the invoice page. */
export async function voidInvoice(db: Db, merchantId: string, id: string, caller: AuthorizationCaller): Promise<AuthorizationResult> {
  const loaded = await loadForCaller(db, merchantId, id, caller);
  if ("kind" in loaded) return loaded;
  const invoice = loaded;
  const replay = replayed(invoice, caller, "void");
  if (replay) return replay;
  if (invoice.status !== "authorized") return { kind: "refused", status: 409, ...notAuthorized(invoice, "void") };
  const result = await voidAuthorization(db, invoice, "voided", "voided by the merchant", caller.idempotencyKey);
  if (result.kind === "taken_by_another") {
    const now = (await readInvoice(db, invoice.id)) ?? invoice;
    return replayed(now, caller, "void") ?? { kind: "refused", status: 409, ...notAuthorized(now, "void") };
  }
  if (result.kind === "not_voided") {
    return {
      kind: "refused",
      status: result.outcome.kind === "refused" ? 502 : 409,
      code: "void_refused",
      detail: `The provider did not void it (${result.outcome.message}); the authorization is still held.`,
    };
  }
  return { kind: "done", invoice: result.invoice, pending: result.pending };
}

type VoidRun =
  | { kind: "taken_by_another" }
  | { kind: "not_voided"; outcome: Exclude<VoidOutcome, { kind: "voided" | "unknown" }> }
  | { kind: "voided"; invoice: InvoiceRow; pending: boolean };

async function voidAuthorization(
  db: Db,
  invoice: InvoiceRow,
  resolution: Extract<Resolution, "voided" | "authorization_expired">,
  reason: string,
  key?: string,
): Promise<VoidRun> {
  const taken = await take(db, invoice, "voiding", { key }, reason);
  if (!taken) return { kind: "taken_by_another" };
  let { outcome } = await sendVoid(db, taken);
  if (outcome.kind === "unknown") {
    const asked = (await askVoid(db, taken)).outcome;
    if (asked.kind === "voided" || asked.kind === "declined") outcome = asked;
  }
  const settled = await applyVoid(db, taken, outcome, resolution, reason);
  if (!settled) {
    await scheduleReconcile(db, taken, 0);
    return { kind: "voided", invoice: taken, pending: true };
  }
  if (outcome.kind === "declined" || outcome.kind === "refused") return { kind: "not_voided", outcome };
  return { kind: "voided", invoice: settled, pending: false };
}

/**
 * One status request for a capture or void without an answer (`authorization-reconcile`); still
 * unknown, the next is queued. A settled invoice is left alone, so a job run twice changes nothing.
 */
export async function reconcileAuthorization(db: Db, invoiceId: string, step: number): Promise<InvoiceRow | undefined> {
  const invoice = await readInvoice(db, invoiceId);
  if (!invoice || (invoice.status !== "capturing" && invoice.status !== "voiding")) return invoice;
  const reason = `status request ${step + 1}`;
  let settled: InvoiceRow | undefined;
  // "Never arrived" while the request may still be on its way (within twice the timeout of it) only means "not yet".
  const young = invoice.updatedAt.getTime() > Date.now() - 2 * providerTimeoutMs();
  const settledLater = <T extends { kind: string; message?: string }>(outcome: T): T =>
    young && outcome.kind === "refused" ? ({ kind: "unknown", message: "not arrived yet" } as unknown as T) : outcome;
  try {
    if (invoice.status === "capturing") settled = await applyCapture(db, invoice, settledLater((await askCapture(db, invoice)).outcome), reason);
    else {
      const resolution =
        invoice.captureBefore && invoice.captureBefore <= new Date() && invoice.authorizationRequestKey === null ? "authorization_expired" : "voided";
      settled = await applyVoid(db, invoice, settledLater((await askVoid(db, invoice)).outcome), resolution, reason);
    }
  } catch (error) {
    if (!(error instanceof StaleInvoiceStatusError)) throw error;
    return readInvoice(db, invoiceId);
  }
  if (!settled) await scheduleReconcile(db, invoice, step + 1);
  return settled ?? invoice;
}

/**
 * The sweep: authorizations past `capture_before` are voided (resolution `authorization_expired`).
 * Each is taken by the same conditional update as a void, so of several instances sweeping at once
 * only one voids it.
 */
export async function voidExpiredAuthorizations(db: Db, scope: { merchantId?: string; limit?: number } = {}): Promise<number> {
  const rows = await db
    .select()
    .from(invoices)
    .where(
      and(eq(invoices.status, "authorized"), lte(invoices.captureBefore, sql`now()`), scope.merchantId ? eq(invoices.merchantId, scope.merchantId) : undefined),
    )
    .orderBy(asc(invoices.captureBefore))
    .limit(scope.limit ?? 100);
  let voided = 0;
  for (const row of rows) {
    const run = await voidAuthorization(db, row as InvoiceRow, "authorization_expired", "authorization expired: not captured before capture_before");
    if (run.kind === "voided") voided += 1;
  }
  return voided;
}

/**
 * Captures and voids the server died in the middle of: an invoice left `capturing` or `voiding`
 * with no status request queued (killed between taking it and queuing one), past twice the provider
 * timeout, gets one at once. Whatever the provider says settles it: captured, voided, or (never
 * arrived) back to `authorized`, where a resent capture takes it again. Keyed by the invoice's last
 * change, so sweeps in several processes queue it once.
 */
export async function requeueAuthorizationFollowUps(db: Db, scope: { merchantId?: string; graceSeconds?: number } = {}): Promise<number> {
  const rows = await db
    .select()
    .from(invoices)
    .where(
      and(
        inArray(invoices.status, ["capturing", "voiding"]),
        scope.merchantId ? eq(invoices.merchantId, scope.merchantId) : undefined,
        lte(invoices.updatedAt, sql`now() - make_interval(secs => ${scope.graceSeconds ?? refundSweepGraceSeconds(providerTimeoutMs())}::double precision)`),
        not(queuedJobExistsSql("authorization-reconcile", invoices.id)),
      ),
    )
    .orderBy(asc(invoices.updatedAt))
    .limit(200);
  for (const row of rows) await scheduleReconcile(db, row as InvoiceRow, 0, `${row.id}:authorization:sweep:${row.updatedAt.getTime()}`, 0);
  return rows.length;
}
