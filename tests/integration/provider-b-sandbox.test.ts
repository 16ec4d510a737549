import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { sandboxRecords } from "@/lib/db/schema";
import type { CredentialValues } from "@/lib/providers";
import { providerBAdapter as adapter } from "@/lib/providers/provider-b/adapter";
import { signB } from "@/lib/providers/provider-b/wire";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { setUpTestDb } from "./helpers/db";
import { runAllJobs } from "./helpers/jobs";
import { describeSandboxDisputes } from "./helpers/sandbox-disputes";
import { describeSandboxRefunds } from "./helpers/sandbox-refunds";
import { adapterContext, closedPortUrl, createTestConnection, paymentInstruction, serveSandboxes } from "./helpers/sandbox-http";

const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
const base = () => `${sandbox.origin}/sandbox/provider-b`;
let credentials: CredentialValues;
let otherCredentials: CredentialValues;

beforeAll(async () => {
  ({ credentials } = await createTestConnection(t.db, "provider-b", "h2h"));
  // A second merchant with the same sample terminal ID and another secret: the signature picks the account.
  ({ credentials: otherCredentials } = await createTestConnection(t.db, "provider-b", "h2h"));
});

const context = (overrides: CredentialValues = {}) => adapterContext(base(), "provider-b", "h2h", { ...credentials, ...overrides });
const payment = (card: string, amount = "100.50", allowPartially = false) =>
  paymentInstruction(card, { amount, allowPartially, currency: "EUR", service: "payment_card_eur_hpp" });

describe("Provider B adapter against its sandbox (HMAC-signed terminal API)", () => {
  it("health check: accepted, refused for a wrong secret or terminal, unreachable on a closed port", async () => {
    expect(await adapter.healthCheck(context())).toMatchObject({ kind: "ok" });
    // One refusal for both: the health check cannot blame the terminal or the secret key alone.
    for (const wrong of [{ secret_key: "wrong-secret-value" }, { terminal_id: "TERM-NONE" }]) {
      const refused = await adapter.healthCheck(context(wrong));
      expect(refused).toMatchObject({ kind: "credentials_refused" });
      expect(refused).not.toHaveProperty("field");
    }
    expect(await adapter.healthCheck(adapterContext(await closedPortUrl(), "provider-b", "h2h", credentials))).toMatchObject({ kind: "unreachable" });
  });

  it("the sandbox answers 401 to a wrong signature, a stale timestamp and a missing one", async () => {
    const headers = (signature: string) => ({ "x-terminal": String(credentials.terminal_id), "x-signature": signature });
    const now = Math.floor(Date.now() / 1000);
    for (const [signature, code] of [
      [signB("wrong", now, ""), "auth_failed"],
      [signB(String(credentials.secret_key), now - 3600, ""), "stale_timestamp"],
      ["", "missing_signature"],
    ]) {
      const response = await fetch(`${base()}/v1/auth-check`, { headers: headers(signature!) });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error_code: code });
    }
  });

  it("a payment with a wrong secret is a soft failure provider_auth_error", async () => {
    expect(await adapter.createPayment(context({ secret_key: "wrong-secret-value" }), payment("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
  });

  it.each([
    ["4242424242424242", { kind: "succeeded", processedAmountMinor: 10050n }],
    ["4000000000000002", { kind: "declined", resolution: "issuer_decline" }],
    ["4000000000009995", { kind: "declined", resolution: "insufficient_funds" }],
    ["4000000000000119", { kind: "soft_failed", resolution: "provider_unavailable" }],
  ])("test card %s", async (card, expected) => {
    expect(await adapter.createPayment(context(), payment(card))).toMatchObject(expected);
  });

  it("3-D Secure: pending with the sandbox's page; the status request settles pass and fail", async () => {
    for (const [answer, expected] of [
      ["pass", { kind: "succeeded", processedAmountMinor: 10050n }],
      ["fail", { kind: "declined", resolution: "auth_3ds_failed" }],
    ] as const) {
      const instruction = payment("4000000000003220");
      const outcome = await adapter.createPayment(context(), instruction);
      expect(outcome).toMatchObject({ kind: "pending", redirectUrl: expect.stringContaining("/sandbox/3ds/provider-b/") });
      await completeThreeDs(t.db, "provider-b", outcome.providerReference!, answer);
      expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toMatchObject(expected);
    }
  });

  it("partial capture: .77 takes 75 % with allow_partially, declined without", async () => {
    expect(await adapter.createPayment(context(), payment("4242424242424242", "10.77", true))).toMatchObject({ kind: "succeeded", processedAmountMinor: 807n });
    expect(await adapter.createPayment(context(), payment("4242424242424242", "10.77", false))).toMatchObject({
      kind: "declined",
      resolution: "insufficient_funds",
    });
  });

  it("echoes the customer it received with B's defaults (spec 2.6) into the exchange log; the status request finds the charge", async () => {
    const ctx = context();
    const instruction = payment("4242424242424242");
    instruction.customer = { name: "Customer", email: "customer@example.com", address: { country: "GB", city: "London" }, language: "en" };
    const outcome = await adapter.createPayment(ctx, instruction);
    const answer = ctx.exchanges.list().at(-1)?.responseBody as Record<string, unknown>;
    expect(answer.received_customer).toEqual({ name: "Customer", email: "customer@example.com", address: { country: "GB", city: "London" } });
    expect(answer.received_lang).toBe("en");
    expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toEqual(outcome);
    expect(await adapter.getStatus(context(), { idempotencyKey: randomUUID(), direction: "payment" })).toMatchObject({ kind: "soft_failed" });
    const log = JSON.stringify(ctx.exchanges.list());
    expect(log).not.toContain("4242424242424242");
    expect(log).not.toContain(String(credentials.secret_key));
  });
});

describeSandboxRefunds({
  provider: "Provider B",
  adapter,
  context: (overrides = {}) => context(overrides as CredentialValues),
  otherAccount: () => adapterContext(base(), "provider-b", "h2h", otherCredentials),
  payment: (card, amount) => payment(card, amount),
});

describeSandboxDisputes({
  provider: "Provider B",
  slug: "provider-b",
  adapter,
  db: () => t.db,
  context: () => context(),
  credentials: () => credentials,
  otherAccount: () => adapterContext(base(), "provider-b", "h2h", otherCredentials),
  payment: (card, amount) => payment(card, amount),
});

describe("Provider B disputes of an authorization", () => {
  it("a dispute card's authorization is not disputed until captured; the dispute is for the captured sum", async () => {
    const previous = process.env.SANDBOX_DISPUTE_OPENS_AFTER_SECONDS;
    process.env.SANDBOX_DISPUTE_OPENS_AFTER_SECONDS = "0";
    onTestFinished(() => {
      if (previous === undefined) delete process.env.SANDBOX_DISPUTE_OPENS_AFTER_SECONDS;
      else process.env.SANDBOX_DISPUTE_OPENS_AFTER_SECONDS = previous;
    });
    const disputesOf = (txn: string) =>
      t.db
        .select()
        .from(sandboxRecords)
        .where(and(eq(sandboxRecords.operation, "dispute"), sql`${sandboxRecords.details}->>'paymentReference' = ${txn}`));
    const instruction = { ...payment("4000000000002685", "100.00"), authorizeOnly: true };
    const authorized = await adapter.createPayment(context(), instruction);
    expect(authorized).toMatchObject({ kind: "succeeded", authorized: {} });
    const txn = (authorized as { providerReference: string }).providerReference;
    await runAllJobs(t.db, { name: "sandbox-dispute-open" });
    expect(await disputesOf(txn)).toHaveLength(0);

    const captured = await adapter.capture!(context(), {
      captureId: `cap_${randomUUID()}`,
      invoiceId: "cpi_test",
      paymentReference: txn,
      paymentKey: instruction.idempotencyKey,
      currency: "EUR",
      amount: "60.00",
      amountMinor: 6_000n,
    });
    expect(captured).toMatchObject({ kind: "captured", capturedMinor: 6_000n });
    await runAllJobs(t.db, { name: "sandbox-dispute-open" });
    const [dispute] = await disputesOf(txn);
    expect(dispute).toMatchObject({
      status: "needs_response",
      amountMinor: 6_000n,
      details: { reason: "not_received", paymentKey: instruction.idempotencyKey },
    });
    expect(await adapter.disputes!.getDispute(context(), { disputeReference: dispute!.reference })).toMatchObject({
      kind: "found",
      report: { amountMinor: 6_000n, reason: "not_received", paymentReference: txn },
    });
  });
});
