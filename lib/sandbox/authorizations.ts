import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sandboxRecords } from "@/lib/db/schema";
import type { SandboxAccount } from "./accounts";
import { scheduleSandboxDispute } from "./disputes";
import { findRecordByIdempotencyKey, findRecordByReference, saveRecord, updateRecord, type SandboxRecord } from "./records";

/**
 * What every provider's sandbox does with authorize now, capture later, whatever its
 * wire format: each provider's sandbox reads its own request, then asks here. An authorization is
 * a payment record whose details say `auth: "held"` and until when; one capture (all of it or, where
 * the provider allows, part: the rest released) makes it `captured`, a void `voided`; a capture after
 * `authorizedUntil` is declined (`expired`). Captures and voids are records of their own (operations
 * "capture" and "void"), keyed by the service's id, so a resend is the same one; they are decided
 * while holding the payment's record, so a capture and a void at once take effect once.
 *
 * How long a test authorization holds is a per-connection switch beside the fault switches (a week
 * unless set; `setSandboxAuthorizationHold`), so tests need not wait a week for an expiry.
 */
export const CAPTURE_OPERATION = "capture";
export const VOID_OPERATION = "void";
const HOLD_OPERATION = "auth_hold";
const SANDBOX_DEFAULT_HOLD_SECONDS = 7 * 24 * 3600;

const holdReference = (connectionId: string) => `auth_hold:${connectionId}`;

/** How long this connection's sandbox holds an authorization, in seconds. */
async function sandboxAuthorizationHoldSeconds(db: Db, connectionId: string): Promise<number> {
  const [row] = await db
    .select({ status: sandboxRecords.status })
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.operation, HOLD_OPERATION), eq(sandboxRecords.connectionId, connectionId)));
  const seconds = Number(row?.status);
  return row && Number.isInteger(seconds) && seconds >= 0 ? seconds : SANDBOX_DEFAULT_HOLD_SECONDS;
}

/** Sets how long the connection's sandbox holds an authorization (null: back to a week). The caller checks the connection is the merchant's and in test mode. */
export async function setSandboxAuthorizationHold(db: Db, connection: { id: string; provider: string }, seconds: number | null): Promise<number> {
  const value = String(seconds ?? SANDBOX_DEFAULT_HOLD_SECONDS);
  const reference = holdReference(connection.id);
  const saved = await saveRecord(db, { provider: connection.provider, connectionId: connection.id, operation: HOLD_OPERATION, reference, status: value });
  if (saved.status !== value) await updateRecord(db, connection.provider, reference, { status: value });
  return Number(value);
}

/** When an authorization taken now lapses on this connection's sandbox. */
export async function sandboxAuthorizationUntil(db: Db, connectionId: string): Promise<Date> {
  return new Date(Date.now() + (await sandboxAuthorizationHoldSeconds(db, connectionId)) * 1000);
}

/** The details a payment record keeps for an authorization. */
export const heldDetails = (until: Date) => ({ auth: "held", authorizedUntil: until.toISOString() });

export type SandboxAuthorizationDecline = "expired" | "already_captured" | "voided" | "exceeds" | "partial_not_allowed";

export type SandboxAuthorizationResult =
  { kind: "refused"; status: 400 | 404 | 409; code: string; text: string } | { kind: "recorded"; record: SandboxRecord; decline?: SandboxAuthorizationDecline };

type Ask = {
  provider: string;
  account: SandboxAccount;
  /** The authorization as the provider names it (its payment reference). */
  paymentReference: string;
  /** The capture's or void's key (the service's id). */
  key: string;
  /** Prefix of the provider's references ("capB_"). */
  referencePrefix: string;
  /** Whether the provider's payment record is an authorization it granted (not declined, its 3-D Secure passed). */
  granted: (payment: SandboxRecord) => boolean;
  request?: unknown;
};

async function earlierOrPayment(db: Db, ask: Ask, operation: string): Promise<SandboxAuthorizationResult | SandboxRecord> {
  const earlier = await findRecordByIdempotencyKey(db, ask.provider, ask.account.connectionId, ask.key);
  if (earlier) {
    if (earlier.operation !== operation) return { kind: "refused", status: 409, code: "key_in_use", text: "That key names another request of this account." };
    return { kind: "recorded", record: earlier, decline: earlier.details.decline as SandboxAuthorizationDecline | undefined };
  }
  const payment = await findRecordByReference(db, ask.provider, ask.paymentReference);
  if (
    !payment ||
    payment.connectionId !== ask.account.connectionId ||
    payment.operation !== "payment" ||
    payment.details.auth === undefined ||
    !ask.granted(payment)
  ) {
    return { kind: "refused", status: 404, code: "authorization_not_found", text: "No authorization with that reference on this account." };
  }
  return payment;
}

/** Why the authorization cannot be captured or voided now, read while its record is held. */
function stateDecline(payment: SandboxRecord, now: Date): SandboxAuthorizationDecline | undefined {
  if (payment.details.auth === "captured") return "already_captured";
  if (payment.details.auth === "voided") return "voided";
  if (new Date(String(payment.details.authorizedUntil)) <= now) return "expired";
  return undefined;
}

/** Takes a capture, or answers the one already taken under the same key by this account. */
export async function takeSandboxCapture(
  db: Db,
  ask: Ask & { amountMinor: bigint; currency: string; partialAllowed: boolean },
): Promise<SandboxAuthorizationResult> {
  const found = await earlierOrPayment(db, ask, CAPTURE_OPERATION);
  if ("kind" in found) return found;
  const payment = found;
  if (payment.currency && payment.currency !== ask.currency)
    return { kind: "refused", status: 400, code: "currency_mismatch", text: `The authorization is in ${payment.currency}, not ${ask.currency}.` };
  if (ask.amountMinor <= 0n) return { kind: "refused", status: 400, code: "invalid_amount", text: "The amount must be above zero." };
  const result = await db.transaction(async (tx): Promise<SandboxAuthorizationResult> => {
    const locked = tx as unknown as Db;
    const [held] = await tx.select().from(sandboxRecords).where(eq(sandboxRecords.id, payment.id)).for("update");
    const current = held ?? payment;
    const authorized = current.amountMinor ?? 0n;
    const decline: SandboxAuthorizationDecline | undefined =
      stateDecline(current, new Date()) ??
      (ask.amountMinor > authorized ? "exceeds" : ask.amountMinor < authorized && !ask.partialAllowed ? "partial_not_allowed" : undefined);
    const record = await saveRecord(locked, {
      provider: ask.provider,
      connectionId: ask.account.connectionId,
      operation: CAPTURE_OPERATION,
      reference: `${ask.referencePrefix}${randomBytes(8).toString("hex")}`,
      idempotencyKey: ask.key,
      amountMinor: decline ? 0n : ask.amountMinor,
      currency: ask.currency,
      status: decline ? "declined" : "succeeded",
      details: { paymentReference: ask.paymentReference, ...(decline ? { decline } : { releasedMinor: String(authorized - ask.amountMinor) }) },
      request: ask.request,
    });
    if (!decline) await updateRecord(locked, ask.provider, payment.reference, { details: { auth: "captured", capturedMinor: String(ask.amountMinor) } });
    return { kind: "recorded", record, ...(decline ? { decline } : {}) };
  });
  // A capture of a payment paid with a dispute card: the customer disputes it a little later.
  if (result.kind === "recorded" && !result.decline) {
    const captured = await findRecordByReference(db, ask.provider, payment.reference);
    if (captured) await scheduleSandboxDispute(db, captured);
  }
  return result;
}

/** Takes a void, or answers the one already taken under the same key. A lapsed authorization voids too: it releases nothing more. */
export async function takeSandboxVoid(db: Db, ask: Ask): Promise<SandboxAuthorizationResult> {
  const found = await earlierOrPayment(db, ask, VOID_OPERATION);
  if ("kind" in found) return found;
  const payment = found;
  return db.transaction(async (tx) => {
    const locked = tx as unknown as Db;
    const [held] = await tx.select().from(sandboxRecords).where(eq(sandboxRecords.id, payment.id)).for("update");
    const current = held ?? payment;
    const state = stateDecline(current, new Date());
    const decline = state === "expired" ? undefined : state;
    const record = await saveRecord(locked, {
      provider: ask.provider,
      connectionId: ask.account.connectionId,
      operation: VOID_OPERATION,
      reference: `${ask.referencePrefix}${randomBytes(8).toString("hex")}`,
      idempotencyKey: ask.key,
      amountMinor: 0n,
      currency: current.currency,
      status: decline ? "declined" : "succeeded",
      details: { paymentReference: ask.paymentReference, ...(decline ? { decline } : {}) },
      request: ask.request,
    });
    if (!decline) await updateRecord(locked, ask.provider, payment.reference, { details: { auth: "voided" } });
    return { kind: "recorded", record, ...(decline ? { decline } : {}) };
  });
}

/** A capture or void of this account, by its key. */
export async function readSandboxAuthorizationRecord(
  db: Db,
  provider: string,
  account: SandboxAccount,
  operation: typeof CAPTURE_OPERATION | typeof VOID_OPERATION,
  key: string,
): Promise<SandboxRecord | undefined> {
  const found = await findRecordByIdempotencyKey(db, provider, account.connectionId, key);
  return found && found.operation === operation ? found : undefined;
}

/**
 * What a refund may take back of a payment record that was an authorization: what its capture took
 * (nothing before a capture, nor after a void); `null` for a payment that was a sale.
 */
export function capturedOfAuthorization(payment: SandboxRecord): bigint | undefined | null {
  if (payment.details.auth === undefined) return null;
  return payment.details.auth === "captured" ? BigInt(String(payment.details.capturedMinor)) : undefined;
}
