import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { CredentialValues } from "@/lib/providers";
import { providerCAdapter as adapter } from "@/lib/providers/provider-c/adapter";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { setUpTestDb } from "./helpers/db";
import { describeSandboxDisputes } from "./helpers/sandbox-disputes";
import { describeSandboxRefunds, refundOf } from "./helpers/sandbox-refunds";
import { adapterContext, closedPortUrl, createTestConnection, paymentInstruction, serveSandboxes } from "./helpers/sandbox-http";

const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
const base = () => `${sandbox.origin}/sandbox/provider-c`;
let account: CredentialValues;
let h2h: CredentialValues;
let otherAccount: CredentialValues;

beforeAll(async () => {
  ({ credentials: account } = await createTestConnection(t.db, "provider-c", "provider_account"));
  ({ credentials: h2h } = await createTestConnection(t.db, "provider-c", "h2h"));
  // A second shop with the same sample shop login and another password: the password picks the account.
  ({ credentials: otherAccount } = await createTestConnection(t.db, "provider-c", "provider_account"));
});

const context = (overrides: CredentialValues = {}) => adapterContext(base(), "provider-c", "provider_account", { ...account, ...overrides });
const amd = (card: string, amount = "5000.00", allowPartially = false) =>
  paymentInstruction(card, { amount, allowPartially, currency: "AMD", service: "payment_card_amd_hpp" });
const eur = (card: string) => paymentInstruction(card, { amount: "49.99", currency: "EUR", service: "payment_card_eur_hpp" });

describe("Provider C adapter against its sandbox (HTTP Basic shop API)", () => {
  it("health check: accepted, refused for a wrong password or login, unreachable on a closed port", async () => {
    expect(await adapter.healthCheck(context())).toMatchObject({ kind: "ok" });
    // One refusal for both: the health check cannot blame one credential alone.
    for (const wrong of [{ shop_password: "not-the-password" }, { shop_login: "no-such-shop" }]) {
      const refused = await adapter.healthCheck(context(wrong));
      expect(refused).toMatchObject({ kind: "credentials_refused" });
      expect(refused).not.toHaveProperty("field");
    }
    expect(await adapter.healthCheck(adapterContext(await closedPortUrl(), "provider-c", "provider_account", account))).toMatchObject({ kind: "unreachable" });
  });

  it("the sandbox answers 401 with a challenge to no credentials and to a wrong password", async () => {
    const none = await fetch(`${base()}/shop/whoami`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Basic");
    const wrong = await fetch(`${base()}/shop/whoami`, {
      headers: { authorization: `Basic ${Buffer.from(`${String(account.shop_login)}:nope`).toString("base64")}` },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: "invalid_credentials" } });
  });

  it("a payment with a wrong password is a soft failure provider_auth_error", async () => {
    expect(await adapter.createPayment(context({ shop_password: "not-the-password" }), amd("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
  });

  it.each([
    ["4242424242424242", { kind: "succeeded", processedAmountMinor: 500000n }],
    ["4000000000000002", { kind: "declined", resolution: "issuer_decline" }],
    ["4000000000009995", { kind: "declined", resolution: "insufficient_funds" }],
    ["4000000000000119", { kind: "soft_failed", resolution: "provider_unavailable" }],
  ])("test card %s", async (card, expected) => {
    expect(await adapter.createPayment(context(), amd(card))).toMatchObject(expected);
  });

  it("the provider account takes AMD and EUR; the H2H account (AMD) refuses EUR", async () => {
    expect(await adapter.createPayment(context(), eur("4242424242424242"))).toMatchObject({ kind: "succeeded", processedAmountMinor: 4999n });
    const h2hContext = adapterContext(base(), "provider-c", "h2h", h2h);
    expect(await adapter.createPayment(h2hContext, amd("4242424242424242"))).toMatchObject({ kind: "succeeded" });
    expect(await adapter.createPayment(h2hContext, eur("4242424242424242"))).toMatchObject({ kind: "declined", resolution: "general_error" });
  });

  it("3-D Secure: pending with the sandbox's page; the status request settles pass and fail", async () => {
    for (const [answer, expected] of [
      ["pass", { kind: "succeeded", processedAmountMinor: 500000n }],
      ["fail", { kind: "declined", resolution: "auth_3ds_failed" }],
    ] as const) {
      const instruction = amd("4000000000003220");
      const outcome = await adapter.createPayment(context(), instruction);
      expect(outcome).toMatchObject({ kind: "pending", redirectUrl: expect.stringContaining("/sandbox/3ds/provider-c/") });
      await completeThreeDs(t.db, "provider-c", outcome.providerReference!, answer);
      expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toMatchObject(expected);
    }
  });

  it("partial capture: .77 takes 75 % with allow_partially, declined without", async () => {
    expect(await adapter.createPayment(context(), amd("4242424242424242", "100.77", true))).toMatchObject({ kind: "succeeded", processedAmountMinor: 7557n });
    expect(await adapter.createPayment(context(), amd("4242424242424242", "100.77", false))).toMatchObject({
      kind: "declined",
      resolution: "insufficient_funds",
    });
  });

  it("one order per shop_order_id; the status request reads it; no password or card number in the log", async () => {
    const ctx = context();
    const instruction = amd("4242424242424242");
    const first = await adapter.createPayment(ctx, instruction);
    expect(await adapter.createPayment(context(), instruction)).toEqual(first);
    expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toEqual(first);
    expect(await adapter.getStatus(context(), { idempotencyKey: randomUUID(), direction: "payment" })).toMatchObject({ kind: "soft_failed" });
    const log = JSON.stringify(ctx.exchanges.list());
    expect(log).not.toContain("4242424242424242");
    expect(log).not.toContain(String(account.shop_password));
    expect(log).not.toContain(Buffer.from(`${String(account.shop_login)}:${String(account.shop_password)}`).toString("base64"));
  });
});

describeSandboxRefunds({
  provider: "Provider C",
  adapter,
  context: (overrides = {}) => context(overrides as CredentialValues),
  otherAccount: () => adapterContext(base(), "provider-c", "provider_account", otherAccount),
  payment: (card, amount) => amd(card, amount),
});

describeSandboxDisputes({
  provider: "Provider C",
  slug: "provider-c",
  adapter,
  db: () => t.db,
  context: () => context(),
  credentials: () => account,
  otherAccount: () => adapterContext(base(), "provider-c", "provider_account", otherAccount),
  payment: (card, amount) => amd(card, amount),
});

describe("Provider C refunds of a 3-D Secure payment", () => {
  it("nothing to refund while the customer has not answered; refundable once the step passed", async () => {
    const instruction = amd("4000000000003220");
    const outcome = await adapter.createPayment(context(), instruction);
    expect(outcome).toMatchObject({ kind: "pending" });
    const paid = { instruction, outcome };
    expect(await adapter.refund(context(), refundOf(paid, "5000.00"))).toMatchObject({ kind: "declined" });
    await completeThreeDs(t.db, "provider-c", outcome.providerReference!, "pass");
    expect(await adapter.refund(context(), refundOf(paid, "5000.00"))).toMatchObject({ kind: "succeeded" });
    expect(await adapter.refund(context(), refundOf(paid, "0.01"))).toMatchObject({ kind: "declined" });
  });
});
