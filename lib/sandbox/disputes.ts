import "server-only";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { DISPUTE_REASONS, type DisputeReason, type DisputeStatus } from "@/lib/db/enums";
import { sandboxRecords } from "@/lib/db/schema";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import type { SandboxAccount } from "./accounts";
import { queueSandboxCallback } from "./callback-send";
import { disputeReasonOfCard, WINNING_EVIDENCE_PHRASE, type CardDecision } from "./cards";
import { findRecordByReference, saveRecord, updateRecord, type SandboxRecord } from "./records";

/**
 * What every provider's sandbox does with disputes, whatever its wire format: each provider's
 * sandbox reads its own request, then asks here, and words the answer with its own mapping.
 *
 * A payment paid with a dispute card (lib/sandbox/cards.ts) keeps only the decision (`dispute` in
 * its record's details: the reason and the provider's reference prefix), never the card. Once the
 * payment is captured (a sale that succeeds; an authorization at its capture), a job opens the
 * dispute `SANDBOX_DISPUTE_OPENS_AFTER_SECONDS` later (default 10): a record of operation
 * "dispute", `needs_response`, for the captured amount, evidence due `SANDBOX_DISPUTE_EVIDENCE_SECONDS`
 * later (default 7 days), and the provider's callback about it.
 *
 * Evidence is keyed by the service's dispute id (a resend is the same submission): refused
 * `deadline_passed` after the due date, `closed` once the dispute left needs_response; otherwise the
 * dispute is `under_review` and is decided `SANDBOX_DISPUTE_DECIDES_AFTER_SECONDS` later (default
 * 10): won when any text field holds `WINNING_EVIDENCE_PHRASE`, lost otherwise, then notified.
 * Accepting makes it `accepted`, notified. Reading a dispute (a status request) applies what is due:
 * a decision whose time came, and a needs_response past its due date becomes lost. Record statuses
 * are the service's dispute statuses; each provider words them in its mapping.ts.
 */

export const DISPUTE_OPERATION = "dispute";

const DEFAULTS = { opensAfter: 10, evidence: 7 * 24 * 3600, decidesAfter: 10 } as const;

/** A whole number of seconds from the environment (read at call time, so tests may set it), or the default. */
function secondsFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

const opensAfterSeconds = () => secondsFromEnv("SANDBOX_DISPUTE_OPENS_AFTER_SECONDS", DEFAULTS.opensAfter);
const evidenceSeconds = () => secondsFromEnv("SANDBOX_DISPUTE_EVIDENCE_SECONDS", DEFAULTS.evidence);
const decidesAfterSeconds = () => secondsFromEnv("SANDBOX_DISPUTE_DECIDES_AFTER_SECONDS", DEFAULTS.decidesAfter);

/** What a dispute card's payment keeps in its details: the decision, not the card. */
type DisputePlan = { reason: DisputeReason; referencePrefix: string };

/**
 * The details a payment record adds when its card is a dispute card and the card decision took
 * money (an approval, full or partial): spread into the record's details at charge time.
 */
export function disputePlanDetails(cardNumber: string, decision: CardDecision, referencePrefix: string): { dispute?: DisputePlan } {
  const reason = disputeReasonOfCard(cardNumber);
  if (!reason || (decision.kind !== "approve" && decision.kind !== "partial")) return {};
  return { dispute: { reason, referencePrefix } };
}

function planOf(payment: SandboxRecord): DisputePlan | undefined {
  const plan = payment.details.dispute as Partial<DisputePlan> | undefined;
  if (!plan || typeof plan.referencePrefix !== "string" || !DISPUTE_REASONS.includes(plan.reason as DisputeReason)) return undefined;
  return plan as DisputePlan;
}

/** What the payment captured: its capture's amount for an authorization (nothing before), its amount for a sale. */
function capturedOf(payment: SandboxRecord): bigint | undefined {
  if (payment.details.auth === undefined) return payment.amountMinor ?? undefined;
  return payment.details.auth === "captured" ? BigInt(String(payment.details.capturedMinor)) : undefined;
}

/**
 * A payment was captured (or taken as a sale): when it was paid with a dispute card, its dispute is
 * scheduled. Called by each sandbox after a sale it approved and by the shared capture; a payment
 * without a plan is left alone. The job's key makes a second scheduling a no-op.
 */
export async function scheduleSandboxDispute(db: Db, payment: SandboxRecord): Promise<void> {
  if (!planOf(payment) || capturedOf(payment) === undefined) return;
  const seconds = opensAfterSeconds();
  try {
    await enqueue(
      db,
      "sandbox-dispute-open",
      { provider: payment.provider, paymentReference: payment.reference },
      { ...(seconds > 0 ? { startAfter: seconds } : {}), key: `dispute-open:${payment.provider}:${payment.reference}` },
    );
  } catch (error) {
    logger.error("sandbox dispute not scheduled", { provider: payment.provider, reference: payment.reference, error });
  }
}

/** One dispute's reference, drawn from its payment's record: opening it twice finds the first. */
const disputeReferenceOf = (plan: DisputePlan, payment: SandboxRecord) =>
  `${plan.referencePrefix}${createHash("sha256").update(payment.id).digest("hex").slice(0, 16)}`;

/** Opens the dispute of a captured dispute-card payment (once), and queues its callback. */
export async function openSandboxDispute(db: Db, provider: string, paymentReference: string): Promise<SandboxRecord | undefined> {
  const payment = await findRecordByReference(db, provider, paymentReference);
  const plan = payment ? planOf(payment) : undefined;
  const captured = payment ? capturedOf(payment) : undefined;
  if (!payment?.connectionId || !plan || captured === undefined) return undefined;
  const record = await saveRecord(db, {
    provider,
    connectionId: payment.connectionId,
    operation: DISPUTE_OPERATION,
    reference: disputeReferenceOf(plan, payment),
    amountMinor: captured,
    currency: payment.currency,
    status: "needs_response" satisfies DisputeStatus,
    details: {
      paymentReference: payment.reference,
      ...(payment.idempotencyKey ? { paymentKey: payment.idempotencyKey } : {}),
      reason: plan.reason,
      evidenceDueBy: new Date(Date.now() + evidenceSeconds() * 1000).toISOString(),
    },
  });
  await queueSandboxCallback(db, record);
  return record;
}

/** A dispute record as every sandbox words it (each with its own codes). */
export type SandboxDispute = {
  reference: string;
  paymentReference: string;
  paymentKey?: string;
  reason: DisputeReason;
  status: DisputeStatus;
  amountMinor: bigint;
  currency: string;
  evidenceDueBy: Date;
};

export function disputeOfRecord(record: SandboxRecord): SandboxDispute {
  const { details } = record;
  return {
    reference: record.reference,
    paymentReference: String(details.paymentReference ?? ""),
    ...(typeof details.paymentKey === "string" ? { paymentKey: details.paymentKey } : {}),
    reason: details.reason as DisputeReason,
    status: record.status as DisputeStatus,
    amountMinor: record.amountMinor ?? 0n,
    currency: record.currency ?? "",
    evidenceDueBy: new Date(String(details.evidenceDueBy)),
  };
}

const isDispute = (record: SandboxRecord | undefined, account?: SandboxAccount): record is SandboxRecord =>
  !!record && record.operation === DISPUTE_OPERATION && (!account || record.connectionId === account.connectionId);

/**
 * What is due of a dispute now, or undefined: a decision whose time came (or any, when `decideNow`),
 * and a needs_response past its due date, which is lost.
 */
function dueChange(record: SandboxRecord, now: Date, decideNow: boolean): { status: DisputeStatus; details: Record<string, unknown> } | undefined {
  if (record.status === "under_review" && (decideNow || new Date(String(record.details.decidesAt)) <= now)) {
    return { status: record.details.decision === "won" ? "won" : "lost", details: { decidedAt: now.toISOString() } };
  }
  if (record.status === "needs_response" && new Date(String(record.details.evidenceDueBy)) <= now) {
    return { status: "lost", details: { decidedAt: now.toISOString(), unanswered: true } };
  }
  return undefined;
}

/**
 * Runs `change` on the dispute while holding its record, after applying what is due; a change of
 * status queues the provider's callback once the hold is released.
 */
async function withDispute(
  db: Db,
  record: SandboxRecord,
  options: { decideNow?: boolean },
  change?: (current: SandboxRecord, now: Date) => { patch?: { status: DisputeStatus; details: Record<string, unknown> }; refusal?: SandboxDisputeRefusal },
): Promise<SandboxDisputeResult> {
  const outcome = await db.transaction(async (tx) => {
    const locked = tx as unknown as Db;
    const [held] = await tx.select().from(sandboxRecords).where(eq(sandboxRecords.id, record.id)).for("update");
    let current = held ?? record;
    const now = new Date();
    const due = dueChange(current, now, options.decideNow === true);
    if (due) current = (await updateRecord(locked, current.provider, current.reference, due)) ?? current;
    const asked = change?.(current, now);
    if (asked?.refusal) return { result: { kind: "refused", ...asked.refusal } as SandboxDisputeResult, changed: due ? current : undefined };
    if (asked?.patch) current = (await updateRecord(locked, current.provider, current.reference, asked.patch)) ?? current;
    return { result: { kind: "recorded", record: current } as SandboxDisputeResult, changed: due || asked?.patch ? current : undefined };
  });
  if (outcome.changed) await notifyOrDecideLater(db, outcome.changed);
  return outcome.result;
}

/** A decided or accepted dispute's callback is queued; one under review is decided later (and the service told then). */
async function notifyOrDecideLater(db: Db, record: SandboxRecord): Promise<void> {
  if (record.status !== "under_review") return queueSandboxCallback(db, record);
  const seconds = decidesAfterSeconds();
  try {
    await enqueue(
      db,
      "sandbox-dispute-decide",
      { provider: record.provider, reference: record.reference },
      { ...(seconds > 0 ? { startAfter: seconds } : {}), key: `dispute-decide:${record.provider}:${record.reference}` },
    );
  } catch (error) {
    // The dispute is still decided at the service's next status request.
    logger.error("sandbox dispute decision not queued", { provider: record.provider, reference: record.reference, error });
  }
}

type SandboxDisputeRefusal = { status: 404 | 409 | 422; code: "not_found" | "deadline_passed" | "closed"; text: string };
export type SandboxDisputeResult =
  { kind: "refused"; status: 404 | 409 | 422; code: SandboxDisputeRefusal["code"]; text: string } | { kind: "recorded"; record: SandboxRecord };

const NOT_FOUND: SandboxDisputeResult = { kind: "refused", status: 404, code: "not_found", text: "No dispute with that reference on this account." };

/** Why a dispute takes no evidence or acceptance now: no longer open for a response, or its due date has passed. */
function refusalOf(current: SandboxRecord, now: Date): SandboxDisputeRefusal | undefined {
  if (current.status !== "needs_response") {
    // A needs_response past its due date was made lost just before: that is the deadline, not a decision.
    if (current.details.unanswered === true) return { status: 422, code: "deadline_passed", text: "The evidence due date has passed." };
    return { status: 422, code: "closed", text: `The dispute is ${current.status}: it takes no response now.` };
  }
  if (new Date(String(current.details.evidenceDueBy)) <= now) return { status: 422, code: "deadline_passed", text: "The evidence due date has passed." };
  return undefined;
}

/** The merchant's evidence in plain text fields, and what the sandbox keeps of its files (never their bytes). */
export type SandboxEvidence = {
  text: Readonly<Record<string, string | undefined>>;
  files: readonly { name: string; contentType: string; bytes: number }[];
};

/** The dispute of this account with this reference as it is now (what is due applied); undefined when there is none. */
export async function readSandboxDispute(db: Db, provider: string, account: SandboxAccount, reference: string): Promise<SandboxRecord | undefined> {
  const found = await findRecordByReference(db, provider, reference);
  if (!isDispute(found, account)) return undefined;
  const result = await withDispute(db, found, {});
  return result.kind === "recorded" ? result.record : found;
}

/** Takes the merchant's evidence once per submission key (the service's dispute id). */
export async function submitSandboxEvidence(
  db: Db,
  input: { provider: string; account: SandboxAccount; reference: string; submissionKey: string; evidence: SandboxEvidence },
): Promise<SandboxDisputeResult> {
  const found = await findRecordByReference(db, input.provider, input.reference);
  if (!isDispute(found, input.account)) return NOT_FOUND;
  return withDispute(db, found, {}, (current, now) => {
    // The same submission sent again: answered with the dispute as it is now.
    if (current.details.submissionKey === input.submissionKey) return {};
    const refusal = refusalOf(current, now);
    if (refusal) return { refusal };
    const wins = Object.values(input.evidence.text).some((value) => typeof value === "string" && value.includes(WINNING_EVIDENCE_PHRASE));
    return {
      patch: {
        status: "under_review",
        details: {
          submissionKey: input.submissionKey,
          evidence: { fields: Object.keys(input.evidence.text).filter((key) => input.evidence.text[key]), files: input.evidence.files },
          decision: wins ? "won" : "lost",
          decidesAt: new Date(now.getTime() + decidesAfterSeconds() * 1000).toISOString(),
        },
      },
    };
  });
}

/** Concedes the dispute once per key (the service's dispute id): accepted, and the service told. */
export async function acceptSandboxDispute(
  db: Db,
  input: { provider: string; account: SandboxAccount; reference: string; key: string },
): Promise<SandboxDisputeResult> {
  const found = await findRecordByReference(db, input.provider, input.reference);
  if (!isDispute(found, input.account)) return NOT_FOUND;
  return withDispute(db, found, {}, (current, now) => {
    if (current.details.acceptKey === input.key && current.status === "accepted") return {};
    const refusal = refusalOf(current, now);
    if (refusal) return { refusal };
    return { patch: { status: "accepted", details: { acceptKey: input.key, acceptedAt: now.toISOString() } } };
  });
}

/** The scheduled decision of a dispute under review (the job's); any other dispute is left as it is. */
export async function decideSandboxDispute(db: Db, provider: string, reference: string): Promise<void> {
  const found = await findRecordByReference(db, provider, reference);
  if (!isDispute(found) || found.status !== "under_review") return;
  await withDispute(db, found, { decideNow: true });
}
