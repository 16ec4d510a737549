import "server-only";
import { createHash } from "node:crypto";
import { and, eq, isNull, or, type SQL } from "drizzle-orm";
import { isConnectionId } from "@/lib/connections/queries";
import { credentialsKey } from "@/lib/vault/vault-key";
import { revealCredentials } from "@/lib/connections/store";
import type { Db } from "@/lib/db/client";
import type { CallbackOutcome } from "@/lib/db/enums";
import { OPEN_REFUND_STATUSES } from "@/lib/db/enums";
import { connections, invoiceAttempts, invoices, providerCallbacks, refunds } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { logger, redact } from "@/lib/logger";
import { recordRefundOutcome } from "@/lib/refunds/send";
import { readRefund } from "@/lib/refunds/store";
import { applyAttemptOutcome } from "@/lib/processing/apply-outcome";
import { applyDisputeReport, findDisputedPayment } from "@/lib/disputes/apply-report";
import { invoiceModeRefusal } from "@/lib/providers/kit/mode-guard";
import type { RefundOutcome } from "@/lib/providers/kit/adapter";
import type { CallbackNotification, CallbackPolicy, CallbackVerification, ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import type { CredentialValues } from "@/lib/providers";
import { getProviderServer } from "@/lib/providers/server/servers";
import { findUnsafeText } from "@/lib/text-safety";
import { parseJson } from "@/lib/providers/kit/callback-scheme";

/**
 * `POST /api/callbacks/<slug>/<connection id>`: a provider's asynchronous notification,
 * verified over the raw body before anything in it is read. Every callback that names a known
 * provider is stored (`provider_callbacks`), the refused ones as `rejected` with the reason, so an
 * operator can see a forgery or a misconfigured secret. A verified one is stored first (the partial
 * unique index on connection and notification id makes a second one, even a concurrent one, a
 * replay) and then applied through `applyAttemptOutcome`, which never lets a late callback about an
 * attempt the invoice has left overwrite the newer attempt. A notification about a refund is
 * applied through `applyRefundOutcome`, which leaves a refund that has already settled as it is;
 * one about a dispute (its subject: the disputed payment's attempt) through `applyDisputeReport`,
 * which moves a dispute only forward.
 */

/** The body a provider may send (../shared/REFERENCE.md "Limits"). */
export const MAX_CALLBACK_BODY_BYTES = 65_536;
/** What of a body is kept, redacted. */
const STORED_BODY_CHARS = 8_192;

export type CallbackBody = { kind: "read"; rawBody: string } | { kind: "too_large" };

export type CallbackInput = { slug: string; connectionId: string; headers: Headers; body: CallbackBody };

export type CallbackReceipt = {
  /** HTTP status of the answer. */
  status: 200 | 400 | 401 | 404 | 413 | 503;
  /** Undefined when nothing was stored (a provider this service does not know). */
  callbackId?: string;
  outcome?: CallbackOutcome;
  reason?: string;
};

/** A provider that declares no callback policy has every verified callback applied. */
const APPLY: CallbackPolicy = { apply: true };

type Row = typeof providerCallbacks.$inferInsert;

function keptHeaders(headers: Headers, callbacks: ProviderCallbacks): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ["content-type", "user-agent", ...callbacks.headers]) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value.slice(0, 512);
  }
  return kept;
}

/** Redacted (secret-looking keys, card numbers) and cut: what the table keeps of a body. */
function storedBody(rawBody: string): string {
  const parsed = parseJson(rawBody);
  const text = parsed === undefined ? (redact(rawBody) as string) : JSON.stringify(redact(parsed));
  // PostgreSQL text holds no NUL: a forged body with one is still stored, with the NUL replaced.
  const storable = text.replace(/\u0000/g, "\uFFFD");
  return storable.length > STORED_BODY_CHARS ? storable.slice(0, STORED_BODY_CHARS) : storable;
}

/** What is kept of a body that did not verify: its size and a short hash, so a repeated forgery can be recognised. */
function unverifiedBody(body: CallbackBody): string {
  if (body.kind === "too_large") return `(not kept: over ${MAX_CALLBACK_BODY_BYTES} bytes)`;
  const digest = createHash("sha256").update(body.rawBody, "utf8").digest("hex").slice(0, 16);
  return `(not kept until verified: ${Buffer.byteLength(body.rawBody, "utf8")} bytes, sha256 ${digest}…)`;
}

/** What the callback reported, mapped, in plain JSON (amounts as text); a refund's notification names the refund. */
function reportedOf(notification: CallbackNotification, subject: Subject | undefined): Record<string, unknown> {
  if (notification.about === "dispute") return { dispute: notification.dispute.disputeReference, status: notification.dispute.status };
  const { outcome } = notification;
  return {
    status: outcome.kind,
    ...(notification.providerReference ? { providerReference: notification.providerReference } : {}),
    ...(subject?.refundId ? { refund: subject.refundId } : {}),
    ...("resolution" in outcome ? { resolution: outcome.resolution } : {}),
    ...(notification.about === "attempt" && notification.outcome.kind === "succeeded"
      ? { processedAmountMinor: notification.outcome.processedAmountMinor.toString() }
      : {}),
    ...("message" in outcome ? { message: outcome.message } : {}),
  };
}

async function store(db: Db, row: Omit<Row, "id">): Promise<string> {
  const id = newId("cb");
  await db.insert(providerCallbacks).values({ ...row, id });
  return id;
}

/** What a notification is about, found among this connection's attempts or refunds: its invoice, and the attempt or the refund. */
type Subject = { invoiceId: string; testMode: boolean; attemptId?: string; refundId?: string };

/** The attempt a notification is about: one of this connection's, by our idempotency key or the provider's reference. */
async function findAttempt(db: Db, connectionId: string, notification: CallbackNotification): Promise<Subject | undefined> {
  const matches: SQL[] = [];
  if (notification.merchantReference) matches.push(eq(invoiceAttempts.idempotencyKey, notification.merchantReference));
  if (notification.providerReference) matches.push(eq(invoiceAttempts.providerReference, notification.providerReference));
  if (matches.length === 0) return undefined;
  const [found] = await db
    .select({ attemptId: invoiceAttempts.id, invoiceId: invoiceAttempts.invoiceId, testMode: invoices.testMode })
    .from(invoiceAttempts)
    .innerJoin(invoices, eq(invoices.id, invoiceAttempts.invoiceId))
    .where(and(eq(invoiceAttempts.connectionId, connectionId), or(...matches)))
    .limit(1);
  return found;
}

/** The refund a notification is about: one of this connection's, by our refund id (its key at the provider), else the provider's reference. */
async function findRefundOf(db: Db, connectionId: string, notification: CallbackNotification): Promise<Subject | undefined> {
  const match = notification.merchantReference
    ? eq(refunds.id, notification.merchantReference)
    : notification.providerReference
      ? eq(refunds.providerReference, notification.providerReference)
      : undefined;
  if (!match) return undefined;
  const [found] = await db
    .select({ refundId: refunds.id, invoiceId: refunds.invoiceId, testMode: refunds.testMode })
    .from(refunds)
    .where(and(eq(refunds.connectionId, connectionId), match))
    .limit(1);
  return found;
}

function verifySafely(
  callbacks: ProviderCallbacks,
  headers: Headers,
  rawBody: string,
  credentials: CredentialValues,
  mode: "test" | "live",
): CallbackVerification {
  try {
    return callbacks.verify({ headers, rawBody }, credentials, { mode });
  } catch {
    // A verified body whose values a mapping cannot read (an amount that is no amount).
    return { ok: false, status: 400, reason: "malformed: unreadable values" };
  }
}

export async function receiveProviderCallback(db: Db, input: CallbackInput): Promise<CallbackReceipt> {
  const server = getProviderServer(input.slug);
  const callbacks = server?.callbacks;
  if (!server || !callbacks) return { status: 404, reason: "unknown provider" };
  // Not an id at all (a NUL byte, say): no connection has it, and PostgreSQL could neither look it up nor store it.
  if (!isConnectionId(input.connectionId)) return { status: 404, reason: "unknown connection" };
  const headers = keptHeaders(input.headers, callbacks);
  const rawBody = input.body.kind === "read" ? input.body.rawBody : "";
  // Until the signature verifies, the body is anyone's: it is neither parsed nor kept, only measured.
  const base = { provider: input.slug, connectionId: input.connectionId.slice(0, 255), headers, body: unverifiedBody(input.body) };
  const reject = async (status: CallbackReceipt["status"], reason: string, extra: Partial<Row> = {}): Promise<CallbackReceipt> => {
    const callbackId = await store(db, { ...base, ...extra, outcome: "rejected", reason });
    return { status, callbackId, outcome: "rejected", reason };
  };

  const [connection] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.id, input.connectionId), eq(connections.provider, input.slug), isNull(connections.deletedAt)))
    .limit(1);
  if (!connection) return reject(404, "unknown connection");
  const merchantId = connection.merchantId;
  if (input.body.kind === "too_large") return reject(413, `body over ${MAX_CALLBACK_BODY_BYTES} bytes`, { merchantId });

  let credentials: CredentialValues;
  try {
    credentials = revealCredentials(connection, credentialsKey());
  } catch {
    return reject(401, "the connection's credentials cannot be opened", { merchantId });
  }
  const verified = verifySafely(callbacks, input.headers, rawBody, credentials, connection.mode);
  if (!verified.ok) return reject(verified.status, verified.reason, { merchantId });

  base.body = storedBody(rawBody);
  // Values PostgreSQL cannot store (a NUL in a reference or message) are refused, not a failed insert.
  if (findUnsafeText(parseJson(rawBody)) !== undefined) return reject(400, "malformed: a value holds a NUL or an unpaired surrogate", { merchantId });
  const { notification } = verified;
  const subject: Subject | undefined =
    notification.about === "dispute"
      ? await findDisputedPayment(db, connection.id, notification.dispute)
      : notification.about === "refund"
        ? await findRefundOf(db, connection.id, notification)
        : await findAttempt(db, connection.id, notification);
  const known = {
    merchantId,
    notificationId: notification.notificationId,
    reported: reportedOf(notification, subject),
    invoiceId: subject?.invoiceId ?? null,
    attemptId: subject?.attemptId ?? null,
  };
  // The provider's own rule, read from the connection's credentials: an ignored callback is stored, never applied.
  const policy = server.callbackPolicy?.(credentials, notification.about) ?? APPLY;
  const ignored = !policy.apply;
  const first: CallbackOutcome = ignored ? "ignored" : "superseded";
  const firstReason = policy.apply ? "being applied" : policy.reason;
  const callbackId = newId("cb");
  // The accepted row goes in first: the partial unique index turns a second one with this notification id into a replay.
  const inserted = await db
    .insert(providerCallbacks)
    .values({ ...base, ...known, id: callbackId, outcome: first, reason: firstReason })
    .onConflictDoNothing()
    .returning({ id: providerCallbacks.id });
  if (inserted.length === 0) return reject(401, "replayed", { ...known, notificationId: notification.notificationId });

  const finish = async (outcome: CallbackOutcome, reason: string | null, status: CallbackReceipt["status"] = 200): Promise<CallbackReceipt> => {
    await db.update(providerCallbacks).set({ outcome, reason }).where(eq(providerCallbacks.id, callbackId));
    return { status, callbackId, outcome, ...(reason ? { reason } : {}) };
  };
  if (!subject) return finish("rejected", `no ${notification.about} of this connection matches the notification`, 404);
  // A sandbox's word never settles a live invoice, nor a live provider's a test one.
  const wrongMode = invoiceModeRefusal(subject.testMode, connection.mode);
  if (wrongMode) return finish("rejected", `mode_mismatch: ${wrongMode.replace("; nothing was sent.", "")}; not applied`, 404);
  if (ignored) return { status: 200, callbackId, outcome: "ignored", reason: firstReason };
  if (notification.about === "dispute") {
    try {
      const reporting = { id: connection.id, merchantId, mode: connection.mode };
      const applied = await applyDisputeReport(db, reporting, notification.dispute, "provider callback", {
        invoiceId: subject.invoiceId,
        attemptId: subject.attemptId!,
        testMode: subject.testMode,
      });
      switch (applied.kind) {
        case "created":
        case "updated":
          return finish("applied", null);
        case "unchanged":
          return finish("superseded", applied.reason);
        default:
          return finish("rejected", applied.reason, 404);
      }
    } catch (error) {
      logger.error("provider callback not applied", { callbackId, provider: input.slug, error });
      return finish("rejected", "not applied (internal error): the provider may send it again", 503);
    }
  }
  if (notification.about === "refund") {
    try {
      const applied = await applyRefundNotification(db, subject.refundId!, notification.outcome);
      return applied.kind === "applied" ? finish("applied", null) : finish("superseded", applied.reason);
    } catch (error) {
      logger.error("provider callback not applied", { callbackId, provider: input.slug, error });
      return finish("rejected", "not applied (internal error): the provider may send it again", 503);
    }
  }
  let applied: Awaited<ReturnType<typeof applyAttemptOutcome>>;
  try {
    applied = await applyAttemptOutcome(db, {
      invoiceId: subject.invoiceId,
      attemptId: subject.attemptId!,
      outcome: notification.outcome,
      reason: "provider callback",
    });
  } catch (error) {
    logger.error("provider callback not applied", { callbackId, provider: input.slug, error });
    // Rejected rows do not count as seen, so the provider's next delivery of it can still apply.
    return finish("rejected", "not applied (internal error): the provider may send it again", 503);
  }
  // While the attempt's own request waits for the provider, the request settles it: this delivery is
  // refused (not seen), so the provider's next delivery applies, or reconciliation asks.
  if (applied.kind === "in_flight") return finish("rejected", `${applied.reason}; send it again`, 503);
  return applied.kind === "applied" ? finish("applied", null) : finish("superseded", applied.reason);
}

/**
 * A refund's settled outcome (succeeded or declined) is applied to a refund still open; anything
 * else changes nothing: a refund already settled keeps its first settlement, and a "still pending"
 * leaves the follow-ups to go on.
 */
async function applyRefundNotification(db: Db, refundId: string, outcome: RefundOutcome): Promise<{ kind: "applied" } | { kind: "unchanged"; reason: string }> {
  const refund = await readRefund(db, refundId);
  if (!refund) return { kind: "unchanged", reason: "the refund is gone" };
  if (!(OPEN_REFUND_STATUSES as readonly string[]).includes(refund.status)) return { kind: "unchanged", reason: `the refund is already ${refund.status}` };
  if (outcome.kind !== "succeeded" && outcome.kind !== "declined")
    return { kind: "unchanged", reason: `the refund is reported ${outcome.kind}: nothing to settle` };
  const { row, applied } = await recordRefundOutcome(db, refund, outcome, [], "provider callback", { sent: true });
  return applied ? { kind: "applied" } : { kind: "unchanged", reason: `the refund is already ${row.status}` };
}
