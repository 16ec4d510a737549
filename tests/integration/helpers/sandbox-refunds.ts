import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { toMinorUnits } from "@/lib/money";
import type { AdapterContext, PaymentInstruction, ProviderAdapter, ProviderOutcome, RefundInstruction } from "@/lib/providers/kit/adapter";

/**
 * The refund behaviour every provider's sandbox promises (lib/sandbox/refunds.ts, the cents of
 * lib/sandbox/refund-triggers.ts), through the provider's own adapter and wire format: each
 * provider's sandbox test calls it with its adapter, a context factory and a payment it can take.
 */
export type SandboxRefundSuite = {
  provider: string;
  adapter: ProviderAdapter;
  /** A context of the test account; `overrides` replace credentials (a wrong secret). */
  context: (overrides?: Record<string, unknown>) => AdapterContext;
  /** A context of a second account that shares the first one's public identifiers (another secret). */
  otherAccount?: () => AdapterContext;
  /** A payment of `amount` with `card` in the provider's currency and service. */
  payment: (card: string, amount: string) => PaymentInstruction;
  /**
   * Credentials the provider itself must refuse (a wrong secret it can still sign with); by default
   * the first secret-looking credential replaced with a wrong value.
   */
  wrongCredentials?: Record<string, unknown>;
  /** Sends a payment; defaults to adapter.createPayment. */
  pay?: (context: AdapterContext, instruction: PaymentInstruction) => Promise<ProviderOutcome>;
};

const SUCCEEDS = "4242424242424242";
const DECLINED = "4000000000000002";

export function refundOf(
  paid: { instruction: PaymentInstruction; outcome: ProviderOutcome },
  amount: string,
  refundId = `rf_${randomUUID()}`,
): RefundInstruction {
  const reference = "providerReference" in paid.outcome ? paid.outcome.providerReference : undefined;
  if (!reference) throw new Error(`the payment has no provider reference: ${JSON.stringify(paid.outcome)}`);
  return {
    refundId,
    invoiceId: paid.instruction.invoiceId,
    paymentReference: reference,
    paymentKey: paid.instruction.idempotencyKey,
    currency: paid.instruction.currency,
    amount,
    amountMinor: toMinorUnits(amount, paid.instruction.currency),
    reason: "Customer asked",
  };
}

export function describeSandboxRefunds(suite: SandboxRefundSuite): void {
  const { adapter } = suite;
  const pay = async (card: string, amount = "100.00") => {
    const instruction = suite.payment(card, amount);
    const outcome = await (suite.pay ?? ((c, i) => adapter.createPayment(c, i)))(suite.context(), instruction);
    return { instruction, outcome };
  };

  describe(`${suite.provider} refunds against its sandbox`, () => {
    it("a full refund succeeds once: the same refund id again is the same refund, and nothing is left to refund", async () => {
      const paid = await pay(SUCCEEDS);
      expect(paid.outcome).toMatchObject({ kind: "succeeded" });
      const refund = refundOf(paid, "100.00");
      const first = await adapter.refund(suite.context(), refund);
      expect(first).toMatchObject({ kind: "succeeded", providerReference: expect.any(String) });
      expect(await adapter.refund(suite.context(), refund)).toEqual(first);
      expect(await adapter.getRefundStatus(suite.context(), { refundId: refund.refundId, paymentReference: refund.paymentReference })).toEqual(first);
      expect(await adapter.refund(suite.context(), refundOf(paid, "0.01"))).toMatchObject({ kind: "declined" });
    });

    it("partial refunds add up to the payment; one more cent is declined", async () => {
      const paid = await pay(SUCCEEDS);
      expect(await adapter.refund(suite.context(), refundOf(paid, "40.00"))).toMatchObject({ kind: "succeeded" });
      expect(await adapter.refund(suite.context(), refundOf(paid, "60.00"))).toMatchObject({ kind: "succeeded" });
      expect(await adapter.refund(suite.context(), refundOf(paid, "0.01"))).toMatchObject({ kind: "declined" });
    });

    it("test refunds: .31 is pending and the status request settles it, .32 is declined, .33 finds the provider unavailable", async () => {
      const paid = await pay(SUCCEEDS);
      const pending = refundOf(paid, "10.31");
      expect(await adapter.refund(suite.context(), pending)).toMatchObject({ kind: "pending", providerReference: expect.any(String) });
      expect(await adapter.getRefundStatus(suite.context(), { refundId: pending.refundId, paymentReference: pending.paymentReference })).toMatchObject({
        kind: "succeeded",
      });
      expect(await adapter.refund(suite.context(), refundOf(paid, "10.32"))).toMatchObject({ kind: "declined", message: expect.any(String) });
      const unavailable = refundOf(paid, "10.33");
      expect(await adapter.refund(suite.context(), unavailable)).toMatchObject({ kind: "refused", resolution: "provider_unavailable" });
      // It was never recorded: the status request says so, and nothing stands in the way of the rest.
      expect(await adapter.getRefundStatus(suite.context(), { refundId: unavailable.refundId, paymentReference: unavailable.paymentReference })).toMatchObject({
        kind: "refused",
      });
      expect(await adapter.refund(suite.context(), refundOf(paid, "79.69"))).toMatchObject({ kind: "succeeded" });
    });

    it("a declined payment has nothing to refund; a wrong secret is refused before anything happens", async () => {
      const declined = await pay(DECLINED);
      expect(declined.outcome).toMatchObject({ kind: "declined" });
      const reference = "providerReference" in declined.outcome && declined.outcome.providerReference;
      if (reference) expect(await adapter.refund(suite.context(), refundOf(declined, "100.00"))).toMatchObject({ kind: "declined" });
      const paid = await pay(SUCCEEDS);
      const secretField = Object.keys(suite.context().credentials).find((id) => /secret|password|private/i.test(id));
      const wrong = suite.wrongCredentials ?? (secretField ? { [secretField]: "wrong-secret-value-0123456789" } : undefined);
      if (wrong) {
        const context = suite.context(wrong);
        const refused = await adapter.refund(context, refundOf(paid, "1.00"));
        expect(refused).toMatchObject({ kind: "refused", resolution: "provider_auth_error" });
        // The provider refused it (401): not the adapter on its own.
        expect(context.exchanges.list().at(-1)?.status).toBe(401);
      }
      expect(await adapter.refund(suite.context(), refundOf(paid, "100.00"))).toMatchObject({ kind: "succeeded" });
    });

    it("a refund id the provider never received: the status request says it never arrived", async () => {
      const paid = await pay(SUCCEEDS);
      expect(
        await adapter.getRefundStatus(suite.context(), { refundId: `rf_${randomUUID()}`, paymentReference: refundOf(paid, "1.00").paymentReference }),
      ).toMatchObject({
        kind: "refused",
      });
    });

    if (suite.otherAccount) {
      it("another account cannot refund this account's payment, nor read its refund", async () => {
        const paid = await pay(SUCCEEDS);
        const refund = refundOf(paid, "5.00");
        expect(await adapter.refund(suite.context(), refund)).toMatchObject({ kind: "succeeded" });
        expect(await adapter.refund(suite.otherAccount!(), refundOf(paid, "5.00"))).toMatchObject({ kind: "declined" });
        expect(await adapter.getRefundStatus(suite.otherAccount!(), { refundId: refund.refundId, paymentReference: refund.paymentReference })).toMatchObject({
          kind: "refused",
        });
      });
    }
  });
}
