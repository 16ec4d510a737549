import "server-only";
import { createHash } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { disputes, invoiceAttempts, invoices, refunds } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { PAYMENT_INVOICE_ID } from "@/lib/ids/patterns";
import { changeInvoiceStatusWithin, queueStatusEvent, type StatusChange } from "@/lib/invoices/status";
import type { InvoiceRow } from "@/lib/invoices/store";
import { canonicalJson } from "@/lib/canonical-json";
import { logger } from "@/lib/logger";
import { formatMinor } from "@/lib/money";
import { problem, problemsFromZod, type Problem } from "@/lib/problems";
import type { Mode } from "@/lib/providers";
import { refundRequestSchema } from "./contract";
import { checkRefundAmount, isRefundableStatus, refundableRest } from "./rules";
import { apiKeyActor, recordAudit, type Actor } from "@/lib/audit/record";
import { recordRefundEvent, type QueuedEvent } from "./events";
import { sendRefund } from "./send";
import { findRefundByReference, refundTotals, type RefundRow } from "./store";

export type CreateRefundInput = {
  merchantId: string;
  invoiceId: string;
  /** The request body as parsed JSON (unchecked). */
  body: unknown;
  /** A support member's credential (composer key or dashboard session): test-mode invoices only. */
  testOnly: boolean;
  /** An API key's mode: a payment of the other mode is not found (nor its refunds replayed). */
  mode?: Mode;
  /** Who asked: a key id or a user id, for the record. */
  createdBy: string;
  /** Who the audit log names; by default the key (or the composer's person) `createdBy` names. */
  actor?: Actor;
  requestId?: string;
};

/** The audit log's actor for a refund asked for by `createdBy` (an API key id, `session:<user id>` for the composer, or a tool's name). */
function actorOf(createdBy: string): Actor {
  if (createdBy.startsWith("key_")) return apiKeyActor(createdBy);
  if (createdBy.startsWith("session:"))
    return { type: "user", id: createdBy.slice("session:".length), label: `Invoice composer (${createdBy.slice("session:".length)})` };
  return { type: "system", id: null, label: createdBy };
}

export type CreateRefundResult =
  | { kind: "created" | "replayed"; refund: RefundRow }
  | { kind: "not_found" }
  | { kind: "invalid"; problems: Problem[] }
  | { kind: "test_only" }
  | { kind: "not_refundable"; code: string; detail: string }
  | { kind: "conflict"; existing: RefundRow };

const ATTRIBUTES = ["data", "attributes"] as const;
const at = (name: string) => [...ATTRIBUTES, name];

function hashOf(invoiceId: string, attributes: unknown): string {
  return createHash("sha256").update(canonicalJson({ invoiceId, attributes })).digest("hex");
}

/** The same reference again in the same mode: the first refund when the body is the same, else a conflict. */
async function replayOrConflict(db: Db, merchantId: string, testMode: boolean, referenceId: string, hash: string): Promise<CreateRefundResult | undefined> {
  const existing = await findRefundByReference(db, merchantId, testMode, referenceId);
  if (!existing) return undefined;
  return existing.requestHash === hash ? { kind: "replayed", refund: existing } : { kind: "conflict", existing };
}

/**
 * Whether the payment is a test one (its refunds, and their reference_ids, are of its mode), or
 * undefined when the caller cannot see it: another merchant's, or of the other mode than the API key's.
 */
async function paymentTestMode(db: Db, input: CreateRefundInput): Promise<boolean | undefined> {
  const [row] = await db
    .select({ testMode: invoices.testMode })
    .from(invoices)
    .where(and(eq(invoices.id, input.invoiceId), eq(invoices.merchantId, input.merchantId), eq(invoices.direction, "payment")));
  if (!row || (input.mode && row.testMode !== (input.mode === "test"))) return undefined;
  return row.testMode;
}

/** What the transaction gives: the stored refund, a refusal, or `raced` (the same reference_id stored by a request at the same moment). */
type Reserved = { refund: RefundRow; change?: StatusChange; event?: QueuedEvent } | CreateRefundResult | { kind: "raced" };

/**
 * A refund of a processed payment (REFERENCE "Statuses"). Checked, stored and the invoice moved to
 * `refunding` in one transaction that holds the invoice's row, so two refunds at the same moment
 * are counted one after the other and can never together give back more than was paid; then sent
 * to the connection that took the payment (lib/refunds/send.ts), with the refund's id as the
 * provider's idempotency key. The answer is the refund after that call.
 */
export async function createRefund(db: Db, input: CreateRefundInput): Promise<CreateRefundResult> {
  if (!PAYMENT_INVOICE_ID.test(input.invoiceId)) return { kind: "not_found" };
  const parsed = refundRequestSchema.safeParse(input.body);
  if (!parsed.success) return { kind: "invalid", problems: problemsFromZod(parsed.error.issues, { input: input.body, codes: "closed" }) };
  const attributes = parsed.data.data.attributes;
  const hash = hashOf(input.invoiceId, attributes);

  // References are per mode: a test refund never answers with, or is refused because of, a live one.
  const testMode = await paymentTestMode(db, input);
  if (testMode === undefined) return { kind: "not_found" };
  const earlier = await replayOrConflict(db, input.merchantId, testMode, attributes.reference_id, hash);
  if (earlier) return earlier;

  let reserved: Reserved;
  try {
    reserved = await db.transaction(async (tx): Promise<Reserved> => {
      const [invoice] = await tx
        .select()
        .from(invoices)
        .where(and(eq(invoices.id, input.invoiceId), eq(invoices.merchantId, input.merchantId), eq(invoices.direction, "payment")))
        .for("update");
      if (!invoice || (input.mode && invoice.testMode !== (input.mode === "test"))) return { kind: "not_found" };
      const refused = refusal(invoice, attributes.test_mode, input.testOnly);
      if (refused) return refused;

      const totals = await refundTotals(tx as unknown as Db, invoice.id);
      const rest = refundableRest(invoice, totals.reservedMinor);
      // A disputed payment is not refunded for what its disputes hold: the refusal names them.
      if (invoice.disputedAmountMinor > 0n && (rest <= 0n || exceedsRest(attributes.amount, invoice.currency, rest))) {
        return { kind: "not_refundable", code: "disputed", detail: await disputedDetail(tx as unknown as Db, invoice, rest) };
      }
      if (rest <= 0n) {
        return {
          kind: "not_refundable",
          code: "fully_refunded",
          detail: `Nothing is left to refund: ${formatMinor(totals.reservedMinor, invoice.currency)} ${invoice.currency} is refunded or on its way back.`,
        };
      }
      const amount = amountOf(attributes.amount, invoice, rest);
      if ("problems" in amount) return { kind: "invalid", problems: amount.problems };

      const [attempt] = await tx
        .select()
        .from(invoiceAttempts)
        .where(and(eq(invoiceAttempts.invoiceId, invoice.id), eq(invoiceAttempts.status, "succeeded")))
        .orderBy(desc(invoiceAttempts.seq))
        .limit(1);
      if (!attempt?.providerReference) {
        return {
          kind: "not_refundable",
          code: "no_provider_payment",
          detail: "The provider's record of this payment is not known, so it cannot be refunded through it.",
        };
      }

      const [refund] = await tx
        .insert(refunds)
        .values({
          id: newId("rf"),
          merchantId: input.merchantId,
          invoiceId: invoice.id,
          connectionId: attempt.connectionId,
          referenceId: attributes.reference_id,
          requestHash: hash,
          amount: amount.text,
          amountMinor: amount.minor,
          currency: invoice.currency,
          reason: attributes.reason || null,
          testMode: invoice.testMode,
          status: "created",
          createdBy: input.createdBy,
          requestId: input.requestId ?? null,
        })
        .onConflictDoNothing()
        .returning();
      // The same reference_id arrived at the same moment: the other request stored it.
      if (!refund) return { kind: "raced" };
      const change =
        invoice.status === "refunding"
          ? undefined
          : await changeInvoiceStatusWithin(tx, invoice, "refunding", undefined, { reason: `refund ${refund.id} asked for`, requestId: input.requestId });
      const event = await recordRefundEvent(tx, refund, change?.row ?? invoice);
      await recordAudit(tx as unknown as Db, {
        merchantId: input.merchantId,
        actor: input.actor ?? actorOf(input.createdBy),
        action: "refund.created",
        target: { type: "invoice", id: invoice.id },
        summary: `${refund.amount} ${refund.currency} (${refund.testMode ? "test" : "live"}), refund ${refund.id}`,
      });
      return { refund, change, event };
    });
  } catch (error) {
    logger.error("refund not stored", { invoiceId: input.invoiceId, error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  if ("kind" in reserved) {
    if (reserved.kind === "raced") return (await replayOrConflict(db, input.merchantId, testMode, attributes.reference_id, hash)) ?? { kind: "not_found" };
    return reserved;
  }
  if (reserved.change) await queueStatusEvent(db, reserved.change);
  await reserved.event?.queue(db);
  logger.info("refund created", { requestId: input.requestId, refundId: reserved.refund.id, invoiceId: input.invoiceId, merchantId: input.merchantId });
  try {
    return { kind: "created", refund: await sendRefund(db, reserved.refund.id) };
  } catch (error) {
    // Stored and committed: the refund exists whatever happened to its send, and the follow-up sweep takes it on.
    logger.error("refund stored, its send failed", { refundId: reserved.refund.id, error: error instanceof Error ? error.message : String(error) });
    return { kind: "created", refund: reserved.refund };
  }
}

/** Why this invoice cannot be refunded by this caller, or nothing. */
function refusal(invoice: InvoiceRow, testMode: boolean | undefined, testOnly: boolean): CreateRefundResult | undefined {
  if (testMode !== undefined && testMode !== invoice.testMode) {
    const mode = invoice.testMode ? "a test-mode" : "a live";
    return {
      kind: "invalid",
      problems: [problem("mode_mismatch", `test_mode is ${testMode}, but this is ${mode} invoice: refunds keep the invoice's mode.`, at("test_mode"))],
    };
  }
  if (testOnly && !invoice.testMode) return { kind: "test_only" };
  if (!isRefundableStatus(invoice.status)) {
    return {
      kind: "not_refundable",
      code: "not_processed",
      detail:
        invoice.status === "refunded"
          ? "This payment is already refunded in full."
          : `Only a processed payment can be refunded; this one is ${invoice.status}.`,
    };
  }
  return undefined;
}

/** Whether an amount that reads as one is more than the rest (anything unreadable is refused by amountOf, with its pointer). */
function exceedsRest(value: unknown, currency: string, rest: bigint): boolean {
  if (value === undefined) return false;
  const checked = checkRefundAmount(value, currency, rest);
  return !checked.ok && checked.code === "exceeds_refundable";
}

/** The refusal's sentence: which disputes hold how much, and what is left. */
async function disputedDetail(db: Db, invoice: InvoiceRow, rest: bigint): Promise<string> {
  const holding = await db
    .select({ id: disputes.id, amount: disputes.amount, status: disputes.status })
    .from(disputes)
    .where(and(eq(disputes.invoiceId, invoice.id), inArray(disputes.status, ["needs_response", "under_review", "lost", "accepted"])))
    .orderBy(disputes.createdAt);
  const named = holding.map((row) => `dispute ${row.id} (${row.status}, ${row.amount} ${invoice.currency})`).join(", ");
  return `This payment is disputed: ${named} holds ${formatMinor(invoice.disputedAmountMinor, invoice.currency)} ${invoice.currency}, which cannot be refunded; at most ${formatMinor(rest, invoice.currency)} ${invoice.currency} can.`;
}

/** The amount asked for, or the whole rest when left out; refused with a pointer when it cannot be. */
function amountOf(value: unknown, invoice: InvoiceRow, rest: bigint): { text: string; minor: bigint } | { problems: Problem[] } {
  if (value === undefined) return { text: formatMinor(rest, invoice.currency), minor: rest };
  const checked = checkRefundAmount(value, invoice.currency, rest);
  return checked.ok ? checked : { problems: [problem(checked.code, checked.message, at("amount"))] };
}
