import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxRecords } from "@/lib/db/schema";
import type { PaymentInstruction } from "@/lib/providers/kit/adapter";
import type { CredentialValues } from "@/lib/providers";
import { providerDAdapter as adapter } from "@/lib/providers/provider-d/adapter";
import { signD } from "@/lib/providers/provider-d/wire";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { setUpTestDb, unique } from "./helpers/db";
import { describeSandboxDisputes } from "./helpers/sandbox-disputes";
import { describeSandboxRefunds, refundOf } from "./helpers/sandbox-refunds";
import { adapterContext, closedPortUrl, createTestConnection, serveSandboxes, silentServer } from "./helpers/sandbox-http";

/** Provider D (spec 4.1, 5.1): its adapter against its sandbox over real HTTP. */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
const base = () => `${sandbox.origin}/sandbox/provider-d`;

/** A D account of its own (D issues a merchant ID per currency, spec 5.1 note 4). */
async function account(overrides: CredentialValues = {}) {
  const credentials = { ...sampleCredentials("provider-d", "h2h", "test"), merchant_id: unique("D"), ...overrides };
  const created = await createTestConnection(t.db, "provider-d", "h2h", credentials);
  return { ...created, context: (changes: CredentialValues = {}) => adapterContext(base(), "provider-d", "h2h", { ...credentials, ...changes }) };
}

function sale(card: string, amount = "150000.00", allowPartially = false): PaymentInstruction {
  const [units, cents = "00"] = amount.split(".");
  return {
    invoiceId: "cpi_test",
    attemptId: "att_test",
    idempotencyKey: randomUUID(),
    service: "payment_card_uzs_hpp",
    currency: "UZS",
    amount,
    amountMinor: BigInt(units!) * 100n + BigInt(cents),
    allowPartially,
    card: { number: card, expiryMonth: 12, expiryYear: 2030, holder: "Dilnoza Karimova" },
    customer: {},
    options: {},
    gatewayOptions: { cardgate: { tokenize: "" } },
    serviceFields: [],
    returnUrl: "http://localhost:3000/pay/cpi_test",
  };
}

const recordsOf = (connectionId: string) => t.db.select().from(sandboxRecords).where(eq(sandboxRecords.connectionId, connectionId));

describe("Provider D adapter against its sandbox", () => {
  it("maps every test card: approve, issuer_decline, insufficient_funds, unavailable, and 3220 approved (D has no 3-D Secure)", async () => {
    const { context } = await account();
    const instruction = sale("4242 4242 4242 4242");
    expect(await adapter.createPayment(context(), instruction)).toMatchObject({
      kind: "succeeded",
      processedAmountMinor: 15_000_000n,
      providerReference: expect.stringMatching(/^dpay_/),
    });
    expect(await adapter.createPayment(context(), sale("4000000000000002"))).toMatchObject({ kind: "declined", resolution: "issuer_decline" });
    expect(await adapter.createPayment(context(), sale("4000000000009995"))).toMatchObject({ kind: "declined", resolution: "insufficient_funds" });
    expect(await adapter.createPayment(context(), sale("4000000000000119"))).toMatchObject({ kind: "soft_failed", resolution: "provider_unavailable" });
    expect(await adapter.createPayment(context(), sale("4000000000003220"))).toMatchObject({ kind: "succeeded", processedAmountMinor: 15_000_000n });
  });

  it("an amount ending in .77 is captured at 75 % with allow_partially and declined without it", async () => {
    const { context } = await account();
    expect(await adapter.createPayment(context(), sale("4242424242424242", "1000.77", true))).toMatchObject({
      kind: "succeeded",
      processedAmountMinor: 75_057n,
    });
    expect(await adapter.createPayment(context(), sale("4242424242424242", "1000.77", false))).toMatchObject({
      kind: "declined",
      resolution: "insufficient_funds",
    });
  });

  it("sends no CVC, signs the body (Api-Key + Sign) and a repeated transaction_id returns the first sale", async () => {
    const { context } = await account();
    const ctx = context();
    const instruction = sale("4242424242424242");
    const first = await adapter.createPayment(ctx, instruction);
    const again = await adapter.createPayment(ctx, instruction);
    expect(again).toEqual(first);
    const [exchange] = ctx.exchanges.list();
    expect(exchange?.url).toBe(`${base()}/merchant/v1/sale`);
    expect(exchange?.requestHeaders.Sign).toMatch(/^[0-9a-f]{128}$/);
    expect(JSON.stringify(exchange?.requestBody)).not.toMatch(/cvc|cvv/i);
  });

  it("spec 5.1: merchant category code and merchant URL are sent only with 'Send merchant data' on; the sandbox records what it got", async () => {
    const on = await account({ send_merchant_data: true, merchant_category_code: "5411", merchant_url: "https://shop.example.com" });
    const off = await account({ send_merchant_data: false });
    await adapter.createPayment(on.context(), sale("4242424242424242"));
    await adapter.createPayment(off.context(), sale("4242424242424242"));
    const [recordOn] = await recordsOf(on.connectionId);
    const [recordOff] = await recordsOf(off.connectionId);
    expect(recordOn?.details).toMatchObject({ merchant_data_sent: true, merchant_category_code: "5411", merchant_url: "https://shop.example.com" });
    expect(recordOff?.details).toMatchObject({ merchant_data_sent: false, merchant_category_code: null, merchant_url: null });
    expect(JSON.stringify(recordOff?.request)).not.toContain("merchant_category_code");
  });

  it("spec 5.1 P2P: a P2P connection pays through /p2p/v1/transfer; the sandbox refuses P2P on a merchant account and a sale on a P2P account (declined, general_error)", async () => {
    const p2p = await account({ p2p: true });
    const plain = await account({ p2p: false });
    const ctx = p2p.context();
    expect(await adapter.createPayment(ctx, sale("4242424242424242"))).toMatchObject({ kind: "succeeded" });
    expect(ctx.exchanges.list()[0]?.url).toBe(`${base()}/p2p/v1/transfer`);
    expect((await recordsOf(p2p.connectionId))[0]).toMatchObject({ operation: "p2p_transfer" });
    const wrongWay = await adapter.createPayment(plain.context({ p2p: true }), sale("4242424242424242"));
    expect(wrongWay).toMatchObject({ kind: "declined", resolution: "general_error", message: expect.stringContaining("not enabled for P2P") });
    const otherWay = await adapter.createPayment(p2p.context({ p2p: false }), sale("4242424242424242"));
    expect(otherWay).toMatchObject({ kind: "declined", resolution: "general_error", message: expect.stringContaining("set up for P2P") });
  });

  it("refuses a wrong API key, a wrong signature and an unknown merchant with 401 (provider_auth_error); accounts sharing a merchant ID are told apart by their keys", async () => {
    const first = await account();
    const twin = await account({ merchant_id: String(first.credentials.merchant_id) });
    expect(await adapter.createPayment(twin.context(), sale("4242424242424242"))).toMatchObject({ kind: "succeeded" });
    expect(await adapter.createPayment(first.context({ api_key: "wrong-api-key-000000000000" }), sale("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
    expect(await adapter.createPayment(first.context({ secret_key: "wrong-secret-000000000000" }), sale("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
    const raw = JSON.stringify({ merchant_id: "D-NOBODY", service_id: "x" });
    const response = await fetch(`${base()}/ping`, { method: "POST", headers: { "Api-Key": "k", Sign: signD("s", raw) }, body: raw });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: "unauthorized", message: "merchant_id, Api-Key or Sign is wrong." } });
  });

  it("a right Api-Key with a wrong Sign is refused exactly like a wrong Api-Key: the key cannot be guessed one refusal at a time", async () => {
    const { credentials } = await account();
    const raw = JSON.stringify({ merchant_id: credentials.merchant_id, service_id: credentials.service_id });
    const ping = async (apiKey: string, secret: string) => {
      const answer = await fetch(`${base()}/ping`, { method: "POST", headers: { "Api-Key": apiKey, Sign: signD(secret, raw) }, body: raw });
      return { status: answer.status, body: await answer.text() };
    };
    const wrongKey = await ping("wrong-api-key-000000000000", String(credentials.secret_key));
    const rightKeyWrongSign = await ping(String(credentials.api_key), "wrong-secret-000000000000");
    expect(wrongKey.status).toBe(401);
    expect(rightKeyWrongSign).toEqual(wrongKey);
    expect((await ping(String(credentials.api_key), String(credentials.secret_key))).status).toBe(200);
  });

  it("health check: ok, credentials refused (none of merchant ID, API key and secret key blamed alone; a wrong service ID named), unreachable on a closed port", async () => {
    const { context, credentials } = await account();
    expect(await adapter.healthCheck(context())).toMatchObject({ kind: "ok" });
    for (const wrong of [{ api_key: "wrong-api-key-000000000000" }, { secret_key: "wrong-secret-000000000000" }, { merchant_id: "D-NOBODY" }]) {
      const refused = await adapter.healthCheck(context(wrong));
      expect(refused).toMatchObject({ kind: "credentials_refused" });
      expect(refused).not.toHaveProperty("field");
    }
    expect(await adapter.healthCheck(context({ service_id: "D-SVC-NOBODY" }))).toMatchObject({ kind: "credentials_refused", field: "service_id" });
    const closed = adapterContext(await closedPortUrl(), "provider-d", "h2h", credentials);
    expect(await adapter.healthCheck(closed)).toMatchObject({ kind: "unreachable" });
  });

  it("a sale to a closed port is a soft failure (not sent); one left without an answer is unknown (timed out)", async () => {
    const { credentials } = await account();
    const closed = adapterContext(await closedPortUrl(), "provider-d", "h2h", credentials);
    expect(await adapter.createPayment(closed, sale("4242424242424242"))).toMatchObject({ kind: "soft_failed", resolution: "provider_unavailable" });
    const silent = await silentServer();
    try {
      const waiting = adapterContext(silent.url, "provider-d", "h2h", credentials, 300);
      expect(await adapter.createPayment(waiting, sale("4242424242424242"))).toMatchObject({ kind: "unknown" });
    } finally {
      await silent.close();
    }
  });

  it("getStatus by idempotency key after a payment; a sale D never saw is a soft failure", async () => {
    const { context } = await account();
    const instruction = sale("4242424242424242");
    const paid = await adapter.createPayment(context(), instruction);
    const status = await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" });
    expect(status).toEqual(paid);
    const declined = sale("4000000000000002");
    await adapter.createPayment(context(), declined);
    expect(await adapter.getStatus(context(), { idempotencyKey: declined.idempotencyKey, direction: "payment" })).toMatchObject({
      kind: "declined",
      resolution: "issuer_decline",
    });
    expect(await adapter.getStatus(context(), { idempotencyKey: randomUUID(), direction: "payment" })).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_unavailable",
    });
  });

  it("no full card number in the sandbox's records or the adapter's exchange log", async () => {
    const { context, connectionId } = await account();
    const ctx = context();
    for (const card of ["4242424242424242", "4000000000000002", "4000000000000119"]) await adapter.createPayment(ctx, sale(card));
    const stored = JSON.stringify(await recordsOf(connectionId), (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
    const logged = JSON.stringify(ctx.exchanges.list());
    for (const card of ["4242424242424242", "4000000000000002", "4000000000000119"]) {
      expect(stored).not.toContain(card);
      expect(logged).not.toContain(card);
    }
    expect(stored).toContain("424242******4242");
  });
});

describe("Provider D refunds: its own wire format", () => {
  it("POST /refund carries the refund's transaction_id, D's payment_id, tiyin and the numeric currency, signed, without merchant data; /refund/status reads it back", async () => {
    const { context, connectionId } = await account({ send_merchant_data: true, merchant_category_code: "5411", merchant_url: "https://shop.example.com" });
    const instruction = sale("4242424242424242", "1000.00");
    const paid = { instruction, outcome: await adapter.createPayment(context(), instruction) };
    const ctx = context();
    const refund = refundOf(paid, "250.50");
    const taken = await adapter.refund(ctx, refund);
    expect(taken).toEqual({ kind: "succeeded", providerReference: expect.stringMatching(/^drf_/) });
    const [exchange] = ctx.exchanges.list();
    expect(exchange?.url).toBe(`${base()}/refund`);
    expect(exchange?.requestHeaders.Sign).toMatch(/^[0-9a-f]{128}$/);
    expect(exchange?.requestBody).toEqual({
      merchant_id: expect.any(String),
      service_id: expect.any(String),
      transaction_id: refund.refundId,
      payment_id: refund.paymentReference,
      amount: 25_050,
      currency: "860",
      reason: "Customer asked",
    });
    expect(exchange?.responseBody).toMatchObject({
      result: { transaction_id: refund.refundId, payment_id: refund.paymentReference, state: 2, amount: 25_050, currency: "860", reject_code: null },
    });
    const stored = (await recordsOf(connectionId)).find((record) => record.operation === "refund");
    expect(JSON.stringify(stored?.request)).not.toMatch(/merchant_category_code|merchant_url/);
    expect(await adapter.getRefundStatus(context(), { refundId: refund.refundId, paymentReference: refund.paymentReference })).toEqual(taken);
    // The refund's transaction_id is no sale's: D's sale status does not answer it.
    expect(await adapter.getStatus(context(), { idempotencyKey: refund.refundId, direction: "payment" })).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_unavailable",
    });
  });

  it("a P2P transfer is refunded through the same /refund; a partly captured sale only up to its captured amount (reject code -31641)", async () => {
    const p2p = await account({ p2p: true });
    const transfer = sale("4242424242424242", "500.00");
    const transferred = { instruction: transfer, outcome: await adapter.createPayment(p2p.context(), transfer) };
    expect(await adapter.refund(p2p.context(), refundOf(transferred, "500.00"))).toMatchObject({ kind: "succeeded" });

    const { context } = await account();
    const partly = sale("4242424242424242", "1000.77", true);
    const paid = { instruction: partly, outcome: await adapter.createPayment(context(), partly) };
    expect(paid.outcome).toMatchObject({ kind: "succeeded", processedAmountMinor: 75_057n });
    expect(await adapter.refund(context(), refundOf(paid, "750.58"))).toMatchObject({ kind: "declined", message: expect.stringContaining("-31641") });
    expect(await adapter.refund(context(), refundOf(paid, "750.57"))).toMatchObject({ kind: "succeeded" });
  });

  it("a wrong API key is refused (provider_auth_error) and nothing is recorded; an unknown path lists D's endpoints", async () => {
    const { context, connectionId } = await account();
    const instruction = sale("4242424242424242");
    const paid = { instruction, outcome: await adapter.createPayment(context(), instruction) };
    expect(await adapter.refund(context({ api_key: "wrong-api-key-000000000000" }), refundOf(paid, "1.00"))).toMatchObject({
      kind: "refused",
      resolution: "provider_auth_error",
    });
    expect((await recordsOf(connectionId)).filter((record) => record.operation === "refund")).toEqual([]);
    const response = await fetch(`${base()}/refunds`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "not_found", message: expect.stringContaining("/refund, /refund/status") } });
  });
});

// The conformance suite: one D account and a second one sharing its merchant ID (its own API key and secret).
let refunding: Awaited<ReturnType<typeof account>>;
let twin: Awaited<ReturnType<typeof account>>;
beforeAll(async () => {
  refunding = await account();
  twin = await account({ merchant_id: String(refunding.credentials.merchant_id) });
});

describeSandboxRefunds({
  provider: "Provider D",
  adapter,
  context: (overrides = {}) => refunding.context(overrides as CredentialValues),
  otherAccount: () => twin.context(),
  payment: (card, amount) => sale(card, amount),
});

describeSandboxDisputes({
  provider: "Provider D",
  slug: "provider-d",
  adapter,
  db: () => t.db,
  context: () => refunding.context(),
  credentials: () => refunding.credentials,
  otherAccount: () => twin.context(),
  payment: (card, amount) => sale(card, amount),
});
