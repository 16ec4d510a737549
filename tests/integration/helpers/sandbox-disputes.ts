import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { sandboxRecords } from "@/lib/db/schema";
import type { CredentialValues } from "@/lib/providers";
import type { AdapterContext, DisputeEvidenceInstruction, PaymentInstruction, ProviderAdapter, ProviderOutcome } from "@/lib/providers/kit/adapter";
import { getProviderServer } from "@/lib/providers/server/servers";
import { WINNING_EVIDENCE_PHRASE } from "@/lib/sandbox/cards";
import { DISPUTE_OPERATION } from "@/lib/sandbox/disputes";
import { runAllJobs } from "./jobs";

/**
 * The dispute behaviour every provider's sandbox promises (lib/sandbox/disputes.ts), through the
 * provider's own adapter, wire format and callback scheme: each provider's sandbox test calls it
 * with its adapter, a context factory and a payment it can take (and, for a provider whose payments
 * are captured later, `pay` capturing it).
 */
export type SandboxDisputeSuite = {
  provider: string;
  slug: string;
  adapter: ProviderAdapter;
  db: () => Db;
  context: () => AdapterContext;
  /** The test account's credentials, as the callback of its connection is signed and verified with them. */
  credentials: () => CredentialValues;
  /** A context of another account of the same provider: it must not see the first one's disputes. */
  otherAccount?: () => AdapterContext;
  payment: (card: string, amount: string) => PaymentInstruction;
  /** Takes the payment (and captures it, for authorize-capture tests); defaults to adapter.createPayment. */
  pay?: (context: AdapterContext, instruction: PaymentInstruction) => Promise<ProviderOutcome>;
};

const FRAUD_CARD = "4000000000000259";
const NOT_RECEIVED_CARD = "4000000000002685";
const SUCCEEDS = "4242424242424242";

const ENV = ["SANDBOX_DISPUTE_OPENS_AFTER_SECONDS", "SANDBOX_DISPUTE_DECIDES_AFTER_SECONDS", "SANDBOX_DISPUTE_EVIDENCE_SECONDS"] as const;

export function describeSandboxDisputes(suite: SandboxDisputeSuite): void {
  const disputes = suite.adapter.disputes!;
  const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  beforeAll(() => {
    process.env.SANDBOX_DISPUTE_OPENS_AFTER_SECONDS = "0";
  });
  beforeEach(() => {
    process.env.SANDBOX_DISPUTE_DECIDES_AFTER_SECONDS = "3600";
    delete process.env.SANDBOX_DISPUTE_EVIDENCE_SECONDS;
  });
  afterAll(() => {
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const disputeRecordOf = async (paymentReference: string) => {
    const [record] = await suite
      .db()
      .select()
      .from(sandboxRecords)
      .where(
        and(
          eq(sandboxRecords.provider, suite.slug),
          eq(sandboxRecords.operation, DISPUTE_OPERATION),
          sql`${sandboxRecords.details}->>'paymentReference' = ${paymentReference}`,
        ),
      );
    return record;
  };

  /** Pays with `card`, lets the sandbox's due jobs run, and answers the payment and its dispute record (if any). */
  const payAndWait = async (card: string, amount = "100.00") => {
    const instruction = suite.payment(card, amount);
    const outcome = await (suite.pay ?? ((c, i) => suite.adapter.createPayment(c, i)))(suite.context(), instruction);
    expect(outcome).toMatchObject({ kind: "succeeded" });
    const paymentReference = (outcome as { providerReference: string }).providerReference;
    await runAllJobs(suite.db(), { name: "sandbox-dispute-open" });
    return { instruction, paymentReference, record: await disputeRecordOf(paymentReference) };
  };

  const disputed = async (card = FRAUD_CARD) => {
    const paid = await payAndWait(card);
    expect(paid.record, "the sandbox opened a dispute").toBeDefined();
    return { ...paid, disputeReference: paid.record!.reference };
  };

  const evidence = (disputeReference: string, paymentReference: string, explanation: string): DisputeEvidenceInstruction => ({
    disputeId: `dsp_${randomUUID()}`,
    disputeReference,
    paymentReference,
    text: { explanation, product_description: "A blue teapot" },
    files: [{ id: "file_1", filename: "receipt.pdf", contentType: "application/pdf", sha256: "00", data: Buffer.from("%PDF-1.4 receipt") }],
  });

  describe(`${suite.provider} disputes against its sandbox`, () => {
    it("a payment with a dispute card is disputed once captured, needs_response for the captured amount; its signed notification verifies as the dispute", async () => {
      const paid = await disputed();
      const found = await disputes.getDispute(suite.context(), { disputeReference: paid.disputeReference });
      expect(found).toMatchObject({
        kind: "found",
        report: {
          disputeReference: paid.disputeReference,
          paymentReference: paid.paymentReference,
          amountMinor: paid.instruction.amountMinor,
          currency: paid.instruction.currency,
          reason: "fraudulent",
          status: "needs_response",
        },
      });
      const report = (found as { report: { evidenceDueBy: Date } }).report;
      expect(report.evidenceDueBy.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);

      // What the sandbox's callback job sends about the dispute: signed with the connection's scheme, it verifies and reads back the same dispute.
      const callbacks = getProviderServer(suite.slug)!.callbacks!;
      const signed = callbacks.sign({
        event: callbacks.eventFromRecord(paid.record!),
        credentials: suite.credentials(),
        notificationId: `ntf_${randomUUID()}`,
        timestamp: Math.floor(Date.now() / 1000),
      });
      const verified = callbacks.verify({ headers: new Headers(signed.headers), rawBody: signed.rawBody }, suite.credentials(), { mode: "test" });
      expect(verified).toMatchObject({ ok: true, notification: { about: "dispute", providerReference: paid.disputeReference } });
      if (verified.ok && verified.notification.about === "dispute") expect(verified.notification.dispute).toEqual((found as { report: unknown }).report);
      // A changed body is refused.
      const forged = callbacks.verify({ headers: new Headers(signed.headers), rawBody: `${signed.rawBody} ` }, suite.credentials(), { mode: "test" });
      expect(forged).toMatchObject({ ok: false, status: 401 });

      const other = await disputed(NOT_RECEIVED_CARD);
      expect(await disputes.getDispute(suite.context(), { disputeReference: other.disputeReference })).toMatchObject({
        kind: "found",
        report: { reason: "not_received", status: "needs_response" },
      });
      // Any other card is never disputed.
      expect((await payAndWait(SUCCEEDS)).record).toBeUndefined();
    });

    it("evidence with the test phrase is under review, then won (the decision's job, then the notification); a resend is the same submission", async () => {
      const paid = await disputed();
      const winning = evidence(paid.disputeReference, paid.paymentReference, `Delivered and signed for: ${WINNING_EVIDENCE_PHRASE}`);
      expect(await disputes.submitEvidence(suite.context(), winning)).toMatchObject({ kind: "taken", report: { status: "under_review" } });
      expect(await disputes.submitEvidence(suite.context(), winning)).toMatchObject({ kind: "taken", report: { status: "under_review" } });
      await runAllJobs(suite.db(), { name: "sandbox-dispute-decide" });
      expect(await disputes.getDispute(suite.context(), { disputeReference: paid.disputeReference })).toMatchObject({
        kind: "found",
        report: { status: "won" },
      });
      // Decided: another submission, or an acceptance, is refused as closed; the first one resent still answers.
      expect(await disputes.submitEvidence(suite.context(), { ...winning, disputeId: `dsp_${randomUUID()}` })).toMatchObject({
        kind: "refused",
        code: "closed",
      });
      expect(await disputes.accept(suite.context(), { disputeId: winning.disputeId, disputeReference: paid.disputeReference })).toMatchObject({
        kind: "refused",
        code: "closed",
      });
      expect(await disputes.submitEvidence(suite.context(), winning)).toMatchObject({ kind: "taken", report: { status: "won" } });
    });

    it("evidence without the phrase loses; a status request settles the decision when its job has not run (a lost callback)", async () => {
      process.env.SANDBOX_DISPUTE_DECIDES_AFTER_SECONDS = "0";
      const paid = await disputed();
      const losing = evidence(paid.disputeReference, paid.paymentReference, "The customer received the parcel.");
      expect(await disputes.submitEvidence(suite.context(), losing)).toMatchObject({ kind: "taken" });
      expect(await disputes.getDispute(suite.context(), { disputeReference: paid.disputeReference })).toMatchObject({
        kind: "found",
        report: { status: "lost" },
      });
    });

    it("accepting concedes the dispute: accepted, once; evidence afterwards is refused as closed", async () => {
      const paid = await disputed();
      const key = { disputeId: `dsp_${randomUUID()}`, disputeReference: paid.disputeReference };
      expect(await disputes.accept(suite.context(), key)).toMatchObject({ kind: "taken", report: { status: "accepted" } });
      expect(await disputes.accept(suite.context(), key)).toMatchObject({ kind: "taken", report: { status: "accepted" } });
      expect(await disputes.submitEvidence(suite.context(), evidence(paid.disputeReference, paid.paymentReference, WINNING_EVIDENCE_PHRASE))).toMatchObject({
        kind: "refused",
        code: "closed",
      });
    });

    it("after the evidence due date, evidence and acceptance are refused as too late and the dispute reads lost", async () => {
      process.env.SANDBOX_DISPUTE_EVIDENCE_SECONDS = "0";
      const paid = await disputed();
      expect(await disputes.submitEvidence(suite.context(), evidence(paid.disputeReference, paid.paymentReference, WINNING_EVIDENCE_PHRASE))).toMatchObject({
        kind: "refused",
        code: "deadline_passed",
      });
      expect(await disputes.accept(suite.context(), { disputeId: `dsp_${randomUUID()}`, disputeReference: paid.disputeReference })).toMatchObject({
        kind: "refused",
        code: "deadline_passed",
      });
      expect(await disputes.getDispute(suite.context(), { disputeReference: paid.disputeReference })).toMatchObject({
        kind: "found",
        report: { status: "lost" },
      });
    });

    it("an unknown dispute, or another account's, is not found", async () => {
      expect(await disputes.getDispute(suite.context(), { disputeReference: "no-such-dispute" })).toMatchObject({ kind: "not_found" });
      if (!suite.otherAccount) return;
      const paid = await disputed();
      expect(await disputes.getDispute(suite.otherAccount(), { disputeReference: paid.disputeReference })).toMatchObject({ kind: "not_found" });
      expect(await disputes.accept(suite.otherAccount(), { disputeId: `dsp_${randomUUID()}`, disputeReference: paid.disputeReference })).toMatchObject({
        kind: "failed",
      });
    });
  });
}
