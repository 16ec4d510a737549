import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxRecords } from "@/lib/db/schema";
import type { PayoutInstruction } from "@/lib/providers/kit/adapter";
import { providerAAdapter as adapter } from "@/lib/providers/provider-a/adapter";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import type { CredentialValues } from "@/lib/providers";
import { setUpTestDb } from "./helpers/db";
import { describeSandboxDisputes } from "./helpers/sandbox-disputes";
import { describeSandboxRefunds, refundOf } from "./helpers/sandbox-refunds";
import { adapterContext, closedPortUrl, createTestConnection, paymentInstruction, serveSandboxes, silentServer } from "./helpers/sandbox-http";

const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
const base = () => `${sandbox.origin}/sandbox/provider-a`;
let credentials: CredentialValues;
let otherCredentials: CredentialValues;

beforeAll(async () => {
  ({ credentials } = await createTestConnection(t.db, "provider-a", "provider_account"));
  // A second merchant with the same merchant ID and service code and its own key pair: the signature picks the account.
  const pair = generateKeyPair();
  ({ credentials: otherCredentials } = await createTestConnection(t.db, "provider-a", "provider_account", {
    ...credentials,
    payment_key: pair.publicKeyPem,
    private_key: pair.privateKeyPem,
  }));
});

const context = (overrides: CredentialValues = {}) => adapterContext(base(), "provider-a", "provider_account", { ...credentials, ...overrides });

const payment = (card: string, amount = "100.00", allowPartially = false) => paymentInstruction(card, { amount, allowPartially });

function payout(cardNumber: string, amount: string, splitMode: boolean, allowPartially = false): PayoutInstruction {
  const { card: _card, returnUrl: _return, gatewayOptions: _g, serviceFields: _s, ...rest } = payment("4242424242424242", amount, allowPartially);
  return { ...rest, service: "payment_card_uah", cardNumber, splitMode };
}

describe("Provider A adapter against its sandbox (signed JSON API v2)", () => {
  it("health check: reachable with the connection's keys; refused with another private key or merchant id; unreachable on a closed port", async () => {
    expect(await adapter.healthCheck(context())).toMatchObject({ kind: "ok" });
    // One refusal for both: the health check cannot blame the merchant ID or the private key alone.
    for (const wrong of [{ private_key: generateKeyPair().privateKeyPem }, { merchant_id: "A-UNKNOWN" }]) {
      const refused = await adapter.healthCheck(context(wrong));
      expect(refused).toMatchObject({ kind: "credentials_refused" });
      expect(refused).not.toHaveProperty("field");
    }
    // A service code is refused only once the signature verified, so it is named.
    expect(await adapter.healthCheck(context({ service_code: "SVC-WRONG" }))).toMatchObject({ kind: "credentials_refused", field: "service_code" });
    const closed = adapterContext(await closedPortUrl(), "provider-a", "provider_account", credentials);
    expect(await adapter.healthCheck(closed)).toMatchObject({ kind: "unreachable" });
  });

  it("the sandbox answers one 401 to a bad signature and to an unknown merchant", async () => {
    const body = JSON.stringify({ merchant_id: credentials.merchant_id, service_code: credentials.service_code });
    const badSignature = await fetch(`${base()}/api/v2/ping`, { method: "POST", body, headers: { "x-signature": "AAAA" } });
    expect(badSignature.status).toBe(401);
    const refusal = await badSignature.text();
    expect(JSON.parse(refusal)).toEqual({ error: { code: "authentication_failed", message: "merchant_id or X-Signature is wrong." } });
    const unknown = await fetch(`${base()}/api/v2/ping`, { method: "POST", body: JSON.stringify({ merchant_id: "nobody" }) });
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toBe(refusal);
  });

  it("a payment with a wrong signature or merchant is a soft failure provider_auth_error", async () => {
    for (const wrong of [{ private_key: generateKeyPair().privateKeyPem }, { merchant_id: "A-UNKNOWN" }]) {
      expect(await adapter.createPayment(context(wrong), payment("4242424242424242"))).toMatchObject({
        kind: "soft_failed",
        resolution: "provider_auth_error",
      });
    }
  });

  it.each([
    ["4242424242424242", { kind: "succeeded", processedAmountMinor: 10000n }],
    ["4000000000000002", { kind: "declined", resolution: "issuer_decline" }],
    ["4000000000009995", { kind: "declined", resolution: "insufficient_funds" }],
    ["4000000000000119", { kind: "soft_failed", resolution: "provider_unavailable" }],
  ])("test card %s", async (card, expected) => {
    expect(await adapter.createPayment(context(), payment(card))).toMatchObject(expected);
  });

  it("a wrong CVC (000) is invalid_cvv", async () => {
    const instruction = payment("4242424242424242");
    instruction.card.cvc = "000";
    expect(await adapter.createPayment(context(), instruction)).toMatchObject({ kind: "declined", resolution: "invalid_cvv" });
  });

  it("3-D Secure: pending with the sandbox's page, then the status request settles a pass and a fail", async () => {
    for (const [answer, expected] of [
      ["pass", { kind: "succeeded", processedAmountMinor: 10000n }],
      ["fail", { kind: "declined", resolution: "auth_3ds_failed" }],
    ] as const) {
      const instruction = payment("4000000000003220");
      const outcome = await adapter.createPayment(context(), instruction);
      expect(outcome).toMatchObject({ kind: "pending", redirectUrl: expect.stringContaining("/sandbox/3ds/provider-a/") });
      if (outcome.kind !== "pending") throw new Error("not pending");
      expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toMatchObject({ kind: "pending" });
      await completeThreeDs(t.db, "provider-a", outcome.providerReference, answer);
      expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toMatchObject(expected);
    }
  });

  it("amounts ending .77 are captured at 75 % with allow_partially and declined without it", async () => {
    expect(await adapter.createPayment(context(), payment("4242424242424242", "100.77", true))).toMatchObject({
      kind: "succeeded",
      processedAmountMinor: 7557n,
    });
    expect(await adapter.createPayment(context(), payment("4242424242424242", "100.77", false))).toMatchObject({
      kind: "declined",
      resolution: "insufficient_funds",
    });
  });

  it("the same request_id twice is one payment; the status request finds it; an unknown id is a soft failure", async () => {
    const instruction = payment("4242424242424242");
    const first = await adapter.createPayment(context(), instruction);
    const second = await adapter.createPayment(context(), instruction);
    expect(second).toEqual(first);
    expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toEqual(first);
    const rows = await t.db.select().from(sandboxRecords).where(eq(sandboxRecords.idempotencyKey, instruction.idempotencyKey));
    expect(rows).toHaveLength(1);
    expect(await adapter.getStatus(context(), { idempotencyKey: randomUUID(), direction: "payment" })).toMatchObject({ kind: "soft_failed" });
  });

  it("a timeout after sending is an unknown outcome", async () => {
    const silent = await silentServer();
    try {
      const slow = adapterContext(silent.url, "provider-a", "provider_account", credentials, 300);
      expect(await adapter.createPayment(slow, payment("4242424242424242"))).toMatchObject({ kind: "unknown" });
    } finally {
      await silent.close();
    }
  });

  it("split_mode pays out over 10,000.00 UAH in three parts with their own references; a retry with the same request_id is one payout", async () => {
    const instruction = payout("400000******4242", "30000.00", true);
    const outcome = await adapter.createPayout!(context(), instruction);
    expect(outcome).toMatchObject({ kind: "succeeded", processedAmountMinor: 3000000n });
    if (outcome.kind !== "succeeded") throw new Error("not succeeded");
    expect(outcome.parts?.map((part) => part.amountMinor)).toEqual([1000000n, 1000000n, 1000000n]);
    expect(new Set(outcome.parts?.map((part) => part.providerReference)).size).toBe(3);
    expect(await adapter.createPayout!(context(), instruction)).toEqual(outcome);
    const rows = await t.db.select().from(sandboxRecords).where(eq(sandboxRecords.idempotencyKey, instruction.idempotencyKey));
    expect(rows).toHaveLength(1);
    expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payout" })).toEqual(outcome);
  });

  it("payouts: test cards on the destination number, a partly paid split payout, no split under the threshold", async () => {
    expect(await adapter.createPayout!(context(), payout("400000******0002", "250.75", false))).toMatchObject({
      kind: "declined",
      resolution: "issuer_decline",
    });
    expect(await adapter.createPayout!(context(), payout("4000000000000119", "250.75", false))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_unavailable",
    });
    const partly = await adapter.createPayout!(context(), payout("4242424242424242", "30000.77", true, true));
    expect(partly).toMatchObject({ kind: "succeeded", processedAmountMinor: 2000050n });
    if (partly.kind === "succeeded") expect(partly.parts?.map((part) => part.status)).toEqual(["succeeded", "succeeded", "failed"]);
    expect(await adapter.createPayout!(context(), payout("4242424242424242", "30000.77", true, false))).toMatchObject({
      kind: "declined",
      resolution: "insufficient_funds",
    });
    const small = await adapter.createPayout!(context(), payout("4242424242424242", "250.75", true));
    expect(small).toMatchObject({ kind: "succeeded", processedAmountMinor: 25075n });
    if (small.kind === "succeeded") expect(small.parts).toHaveLength(1);
  });

  it("no full card number or CVC in the exchange log or the sandbox's records", async () => {
    const ctx = context();
    await adapter.createPayment(ctx, payment("4242424242424242"));
    const log = JSON.stringify(ctx.exchanges.list());
    expect(log).not.toContain("4242424242424242");
    expect(log).not.toContain('"123"');
    expect(log).not.toContain(String(credentials.private_key).split("\n")[1]);
    const records = JSON.stringify(await t.db.select().from(sandboxRecords), (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
    expect(records).not.toContain("4242424242424242");
  });
});

describeSandboxRefunds({
  provider: "Provider A",
  adapter,
  context: (overrides = {}) => context(overrides as CredentialValues),
  otherAccount: () => adapterContext(base(), "provider-a", "provider_account", otherCredentials),
  // A private key A's payment key does not match, which the adapter can still sign with: the sandbox refuses it.
  wrongCredentials: { private_key: generateKeyPair().privateKeyPem },
  payment: (card, amount) => payment(card, amount),
});

describeSandboxDisputes({
  provider: "Provider A",
  slug: "provider-a",
  adapter,
  db: () => t.db,
  context: () => context(),
  credentials: () => credentials,
  otherAccount: () => adapterContext(base(), "provider-a", "provider_account", otherCredentials),
  payment: (card, amount) => payment(card, amount),
});

describe("Provider A refunds of a 3-D Secure payment", () => {
  it("nothing to refund while the customer has not answered; refundable once the step passed", async () => {
    const instruction = payment("4000000000003220");
    const outcome = await adapter.createPayment(context(), instruction);
    expect(outcome).toMatchObject({ kind: "pending" });
    const paid = { instruction, outcome };
    expect(await adapter.refund(context(), refundOf(paid, "100.00"))).toMatchObject({ kind: "declined" });
    await completeThreeDs(t.db, "provider-a", outcome.providerReference!, "pass");
    expect(await adapter.refund(context(), refundOf(paid, "100.00"))).toMatchObject({ kind: "succeeded" });
    expect(await adapter.refund(context(), refundOf(paid, "0.01"))).toMatchObject({ kind: "declined" });
  });
});
