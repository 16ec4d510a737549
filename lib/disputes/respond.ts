import "server-only";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { recordAudit, type Actor } from "@/lib/audit/record";
import { findConnectionIncludingDeleted, findConnectionRow } from "@/lib/connections/queries";
import type { Db } from "@/lib/db/client";
import { disputes, invoiceAttempts, merchantFiles, type StoredDisputeEvidence } from "@/lib/db/schema";
import { DISPUTE_ID } from "@/lib/ids/patterns";
import { logger } from "@/lib/logger";
import { problem, problemsFromZod, type Problem } from "@/lib/problems";
import { prepare } from "@/lib/processing/run-attempt";
import type { Mode } from "@/lib/providers";
import type {
  AdapterContext,
  DisputeActionOutcome,
  DisputeEvidenceFile,
  DisputeEvidenceInstruction,
  DisputeStatusOutcome,
  ProviderAdapter,
} from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { applyDisputeReport, type DisputedPayment } from "./apply-report";
import { disputeEvidenceRequestSchema, EVIDENCE_TEXT_FIELDS } from "./contract";
import { findDispute, isOpenDispute, readDispute, type DisputeRow } from "./store";

/**
 * The merchant's answers to a dispute: a draft of evidence (saved as often as wanted while the
 * dispute needs a response), Submit (the evidence sent to the provider once: a compare-and-set on
 * `submitted_at` lets one of two simultaneous submits call the provider), and Accept (concede, the
 * same shape on `accepted_at`). The provider's answer goes through applyDisputeReport like any of
 * its words; an answer that never came leaves the dispute to the follow-up sweep's status requests.
 */

export type DisputeCaller = {
  merchantId: string;
  /** An API key's mode: a dispute of the other mode is not found. */
  mode?: Mode;
  /** Who asked: the key id or the user id, kept on the dispute. */
  by: string;
  /** Who the audit log names. */
  actor: Actor;
};

export type DisputeActionResult =
  | { kind: "ok"; dispute: DisputeRow }
  | { kind: "not_found" }
  | { kind: "invalid"; problems: Problem[] }
  | { kind: "conflict"; code: string; detail: string }
  | { kind: "provider_failed"; detail: string };

const notFound = { kind: "not_found" } as const;

async function findOwn(db: Db, caller: DisputeCaller, disputeId: string): Promise<DisputeRow | undefined> {
  if (!DISPUTE_ID.test(disputeId)) return undefined;
  return findDispute(db, caller.merchantId, disputeId, caller.mode);
}

function notEditable(dispute: DisputeRow): DisputeActionResult {
  if (dispute.acceptedAt) return { kind: "conflict", code: "dispute_accepted", detail: `Dispute ${dispute.id} was accepted; nothing more can be sent.` };
  if (dispute.submittedAt) return { kind: "conflict", code: "evidence_submitted", detail: `The evidence of dispute ${dispute.id} was submitted already.` };
  return { kind: "conflict", code: "dispute_closed", detail: `Dispute ${dispute.id} is ${dispute.status}: evidence is taken only while it needs a response.` };
}

/** `POST /api/commerce/disputes/{id}/evidence`: replaces the draft; files must be the merchant's own, of the dispute's mode. */
export async function saveEvidence(db: Db, caller: DisputeCaller, disputeId: string, body: unknown): Promise<DisputeActionResult> {
  const dispute = await findOwn(db, caller, disputeId);
  if (!dispute) return notFound;
  const parsed = disputeEvidenceRequestSchema.safeParse(body);
  if (!parsed.success) return { kind: "invalid", problems: problemsFromZod(parsed.error.issues, { input: body, codes: "closed" }) };
  const attributes = parsed.data.data.attributes;
  const fileIds = attributes.file_ids ?? [];
  if (fileIds.length > 0) {
    const owned = await db
      .select({ id: merchantFiles.id })
      .from(merchantFiles)
      .where(and(eq(merchantFiles.merchantId, caller.merchantId), eq(merchantFiles.testMode, dispute.testMode), inArray(merchantFiles.id, fileIds)));
    const known = new Set(owned.map((row) => row.id));
    const problems = fileIds.flatMap((id, index) =>
      known.has(id)
        ? []
        : [
            problem("unknown_file", `No file ${id} of this merchant in ${dispute.testMode ? "test" : "live"} mode exists`, [
              "data",
              "attributes",
              "file_ids",
              index,
            ]),
          ],
    );
    if (problems.length > 0) return { kind: "invalid", problems };
  }
  if (dispute.status !== "needs_response" || dispute.submittedAt || dispute.acceptedAt) return notEditable(dispute);
  const evidence: StoredDisputeEvidence = {};
  for (const field of EVIDENCE_TEXT_FIELDS) {
    const value = attributes[field];
    if (value !== undefined && value.trim() !== "") evidence[field] = value;
  }
  if (fileIds.length > 0) evidence.file_ids = [...new Set(fileIds)];
  const [saved] = await db
    .update(disputes)
    .set({ evidence, evidenceUpdatedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(disputes.id, dispute.id), eq(disputes.status, "needs_response"), isNull(disputes.submittedAt), isNull(disputes.acceptedAt)))
    .returning();
  if (!saved) return notEditable((await readDispute(db, dispute.id)) ?? dispute);
  return { kind: "ok", dispute: saved };
}

function hasEvidence(evidence: StoredDisputeEvidence): boolean {
  return EVIDENCE_TEXT_FIELDS.some((field) => (evidence[field] ?? "").trim() !== "") || (evidence.file_ids?.length ?? 0) > 0;
}

type Prepared = {
  adapter: NonNullable<ProviderAdapter["disputes"]>;
  context: AdapterContext;
  paymentReference: string;
  connection: { id: string; merchantId: string; mode: Mode };
  /** The disputed payment as the service knows it: the provider's answers need not name it again. */
  payment: DisputedPayment;
};

/**
 * The provider's dispute half and the connection's context, after the same checks as any call (a
 * test dispute only to a sandbox, a live one only to a live address); a reason otherwise.
 */
async function prepareCall(db: Db, dispute: DisputeRow, { includeDeleted }: { includeDeleted: boolean }): Promise<Prepared | { failure: string }> {
  const connection = includeDeleted
    ? await findConnectionIncludingDeleted(db, dispute.merchantId, dispute.connectionId)
    : await findConnectionRow(db, dispute.merchantId, dispute.connectionId);
  if (!connection) return { failure: "The connection that took this payment was deleted; nothing was sent." };
  const [attempt] = await db
    .select({ id: invoiceAttempts.id, providerReference: invoiceAttempts.providerReference })
    .from(invoiceAttempts)
    .where(and(eq(invoiceAttempts.invoiceId, dispute.invoiceId), eq(invoiceAttempts.connectionId, connection.id), eq(invoiceAttempts.status, "succeeded")))
    .orderBy(desc(invoiceAttempts.seq))
    .limit(1);
  const prepared = await prepare(db, { testMode: dispute.testMode }, connection, createExchangeRecorder());
  if ("failure" in prepared) return { failure: "message" in prepared.failure ? prepared.failure.message : "The provider cannot be called." };
  if (!prepared.adapter.disputes) return { failure: `${connection.provider} takes no dispute calls; nothing was sent.` };
  return {
    adapter: prepared.adapter.disputes,
    context: prepared.context,
    paymentReference: attempt?.providerReference ?? "",
    connection: { id: connection.id, merchantId: connection.merchantId, mode: connection.mode },
    payment: { invoiceId: dispute.invoiceId, attemptId: attempt?.id ?? "", testMode: dispute.testMode },
  };
}

/** An adapter that throws may have sent its request: unknown, never a failure. */
async function callSafely(call: () => Promise<DisputeActionOutcome>): Promise<DisputeActionOutcome> {
  try {
    return await call();
  } catch (error) {
    logger.error("provider adapter threw on a dispute call", { error: error instanceof Error ? error.message : String(error) });
    return { kind: "unknown", message: "The provider call failed unexpectedly; whether it took the call is not known." };
  }
}

type Action = "submit" | "accept";

/** Releases the claim of a call that did not happen (failed or refused), so it may be tried again. */
async function release(db: Db, dispute: DisputeRow, action: Action): Promise<void> {
  await db
    .update(disputes)
    .set(action === "submit" ? { submittedAt: null, submittedBy: null } : { acceptedAt: null, acceptedBy: null })
    .where(eq(disputes.id, dispute.id));
}

/** What the provider's answer makes of the call, recorded (applyDisputeReport) and audited once taken or pending. */
async function settle(
  db: Db,
  claimed: DisputeRow,
  action: Action,
  caller: DisputeCaller,
  prepared: Prepared,
  outcome: DisputeActionOutcome,
): Promise<DisputeActionResult> {
  switch (outcome.kind) {
    case "taken":
      await applyDisputeReport(
        db,
        prepared.connection,
        { ...outcome.report, disputeReference: claimed.providerReference },
        action === "submit" ? "evidence submitted" : "dispute accepted",
        prepared.payment,
      );
      break;
    case "refused":
      await release(db, claimed, action);
      return { kind: "conflict", code: outcome.code, detail: outcome.message };
    case "failed":
      await release(db, claimed, action);
      return { kind: "provider_failed", detail: `${outcome.message} Nothing was taken; try again.` };
    case "unknown":
      // Sent without an answer: it stays claimed (never sent twice); the follow-up sweep asks the provider.
      logger.warn("dispute call without an answer", { disputeId: claimed.id, action, message: outcome.message });
      break;
  }
  await recordAudit(db, {
    merchantId: caller.merchantId,
    actor: caller.actor,
    action: action === "submit" ? "dispute.evidence_submitted" : "dispute.accepted",
    target: { type: "invoice", id: claimed.invoiceId },
    summary: `dispute ${claimed.id}, ${claimed.amount} ${claimed.currency} (${claimed.testMode ? "test" : "live"})`,
  });
  return { kind: "ok", dispute: (await readDispute(db, claimed.id)) ?? claimed };
}

/**
 * `POST /api/commerce/disputes/{id}/submit`: the saved evidence to the provider, once. A repeat
 * (or a submit racing another) answers with the dispute as it is, calling nothing; after the
 * deadline it is refused without calling the provider.
 */
export async function submitDispute(db: Db, caller: DisputeCaller, disputeId: string, now = new Date()): Promise<DisputeActionResult> {
  const dispute = await findOwn(db, caller, disputeId);
  if (!dispute) return notFound;
  if (dispute.submittedAt) return { kind: "ok", dispute };
  if (dispute.acceptedAt || dispute.status !== "needs_response") return notEditable(dispute);
  if (now.getTime() > dispute.evidenceDueBy.getTime()) {
    return {
      kind: "conflict",
      code: "deadline_passed",
      detail: `The provider took evidence for dispute ${dispute.id} until ${dispute.evidenceDueBy.toISOString()}; nothing was sent.`,
    };
  }
  if (!hasEvidence(dispute.evidence)) {
    return {
      kind: "conflict",
      code: "evidence_missing",
      detail: "Save evidence first (POST …/evidence with at least one text field or file); nothing was sent.",
    };
  }
  const prepared = await prepareCall(db, dispute, { includeDeleted: false });
  if ("failure" in prepared) return { kind: "provider_failed", detail: prepared.failure };
  // The claim: of two submits at once, one sets submitted_at and calls; the other finds it set.
  const [claimed] = await db
    .update(disputes)
    .set({ submittedAt: sql`now()`, submittedBy: caller.by, updatedAt: sql`now()` })
    .where(and(eq(disputes.id, dispute.id), eq(disputes.status, "needs_response"), isNull(disputes.submittedAt), isNull(disputes.acceptedAt)))
    .returning();
  if (!claimed) {
    const current = (await readDispute(db, dispute.id)) ?? dispute;
    return current.submittedAt ? { kind: "ok", dispute: current } : notEditable(current);
  }
  const fileIds = claimed.evidence.file_ids ?? [];
  const files: DisputeEvidenceFile[] =
    fileIds.length === 0
      ? []
      : await db
          .select({
            id: merchantFiles.id,
            filename: merchantFiles.filename,
            contentType: merchantFiles.contentType,
            sha256: merchantFiles.sha256,
            data: merchantFiles.data,
          })
          .from(merchantFiles)
          .where(and(eq(merchantFiles.merchantId, claimed.merchantId), inArray(merchantFiles.id, fileIds)));
  const { file_ids: _files, ...text } = claimed.evidence;
  // The dispute's id is the provider's idempotency key: the same submission sent twice is one.
  const instruction: DisputeEvidenceInstruction = {
    disputeId: claimed.id,
    disputeReference: claimed.providerReference,
    paymentReference: prepared.paymentReference,
    text,
    files,
  };
  const outcome = await callSafely(() => prepared.adapter.submitEvidence(prepared.context, instruction));
  return settle(db, claimed, "submit", caller, prepared, outcome);
}

/** `POST /api/commerce/disputes/{id}/accept`: concedes, once; the provider's answer closes it `accepted`. */
export async function acceptDispute(db: Db, caller: DisputeCaller, disputeId: string): Promise<DisputeActionResult> {
  const dispute = await findOwn(db, caller, disputeId);
  if (!dispute) return notFound;
  if (dispute.acceptedAt) return { kind: "ok", dispute };
  if (!isOpenDispute(dispute.status)) return notEditable(dispute);
  const prepared = await prepareCall(db, dispute, { includeDeleted: false });
  if ("failure" in prepared) return { kind: "provider_failed", detail: prepared.failure };
  const [claimed] = await db
    .update(disputes)
    .set({ acceptedAt: sql`now()`, acceptedBy: caller.by, updatedAt: sql`now()` })
    .where(and(eq(disputes.id, dispute.id), inArray(disputes.status, ["needs_response", "under_review"]), isNull(disputes.acceptedAt)))
    .returning();
  if (!claimed) {
    const current = (await readDispute(db, dispute.id)) ?? dispute;
    return current.acceptedAt ? { kind: "ok", dispute: current } : notEditable(current);
  }
  const outcome = await callSafely(() => prepared.adapter.accept(prepared.context, { disputeId: claimed.id, disputeReference: claimed.providerReference }));
  return settle(db, claimed, "accept", caller, prepared, outcome);
}

/**
 * A dispute status request (the follow-up sweep): what the provider says now, applied. Asked
 * through the connection it came from, deleted or not (the dispute is still the provider's).
 */
export async function askAboutDispute(db: Db, dispute: DisputeRow): Promise<DisputeStatusOutcome | { kind: "not_sent"; message: string }> {
  const prepared = await prepareCall(db, dispute, { includeDeleted: true });
  if ("failure" in prepared) return { kind: "not_sent", message: prepared.failure };
  let outcome: DisputeStatusOutcome;
  try {
    outcome = await prepared.adapter.getDispute(prepared.context, { disputeReference: dispute.providerReference });
  } catch (error) {
    return { kind: "failed", message: error instanceof Error ? error.message : "the status request failed" };
  }
  if (outcome.kind === "found") {
    await applyDisputeReport(
      db,
      prepared.connection,
      { ...outcome.report, disputeReference: dispute.providerReference },
      "dispute status request",
      prepared.payment,
    );
  }
  return outcome;
}
