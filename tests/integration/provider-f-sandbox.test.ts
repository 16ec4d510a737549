import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxRecords } from "@/lib/db/schema";
import type { PaymentInstruction } from "@/lib/providers/kit/adapter";
import type { CredentialValues } from "@/lib/providers";
import { providerFAdapter as adapter } from "@/lib/providers/provider-f/adapter";
import { signF } from "@/lib/providers/provider-f/wire";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { setUpTestDb } from "./helpers/db";
import { describeSandboxDisputes } from "./helpers/sandbox-disputes";
import { describeSandboxRefunds, refundOf } from "./helpers/sandbox-refunds";
import { adapterContext, closedPortUrl, createTestConnection, serveSandboxes } from "./helpers/sandbox-http";

/** Provider F (spec 4.1, 5.2): x-merchant-id + HMAC x-signature, bypass_hpp, send_operation_context_on_return. */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
const base = () => `${sandbox.origin}/sandbox/provider-f`;

async function account() {
  const created = await createTestConnection(t.db, "provider-f", "h2h");
  return { ...created, context: (changes: CredentialValues = {}) => adapterContext(base(), "provider-f", "h2h", { ...created.credentials, ...changes }) };
}

function payment(card: string, amount = "120.00", options: Record<string, unknown> = {}, cvc = "123"): PaymentInstruction {
  const [units, cents = "00"] = amount.split(".");
  return {
    invoiceId: "cpi_test",
    referenceId: "order-7781",
    attemptId: "att_test",
    idempotencyKey: randomUUID(),
    service: "payment_card_eur_hpp",
    currency: "EUR",
    amount,
    amountMinor: BigInt(units!) * 100n + BigInt(cents),
    allowPartially: options.allow_partially === true,
    card: { number: card, expiryMonth: 12, expiryYear: 2030, cvc, holder: "Ada Lovelace" },
    customer: { name: "Ada Lovelace", date_of_birth: "1985-12-10" },
    options,
    gatewayOptions: { cardgate: { tokenize: "" } },
    serviceFields: [],
    returnUrl: "http://localhost:3000/pay/cpi_test",
  };
}

const recordsOf = (connectionId: string) => t.db.select().from(sandboxRecords).where(eq(sandboxRecords.connectionId, connectionId));

describe("Provider F sandbox authentication (spec 5.2)", () => {
  it.each([
    ["/v1/charges", "POST"],
    ["/v1/account", "GET"],
    ["/v1/charges/ch_x", "GET"],
    ["/no/such/path", "GET"],
    ["", "GET"],
  ])("spec 5.2: %s (%s) without x-merchant-id is answered 401 with a JSON error", async (path, method) => {
    const response = await fetch(`${base()}${path}`, { method, ...(method === "POST" ? { body: "{}" } : {}) });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ error: { type: "authentication_error", code: "missing_merchant_id" } });
  });

  it("spec 5.2: an unknown public key, a prod_ key or a bad signature is answered 401 on any path, known or not", async () => {
    const { credentials } = await account();
    // An unknown dev_ key and a bad signature get one refusal: it does not tell which public keys exist.
    const cases = [
      { key: `dev_pub_${randomUUID()}`, secret: String(credentials.secret_key), code: "invalid_api_key" },
      { key: `prod_pub_${randomUUID()}`, secret: String(credentials.secret_key), code: "unknown_merchant_id" },
      { key: String(credentials.public_key), secret: "dev_sec_wrongwrongwrongwrongwrongwrong", code: "invalid_api_key" },
    ];
    for (const { key, secret, code } of cases) {
      for (const path of ["/v1/account", "/unknown/path"]) {
        const response = await fetch(`${base()}${path}`, { headers: { "x-merchant-id": key, "x-signature": signF(secret, "") } });
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ error: { code } });
      }
    }
    const known = await fetch(`${base()}/unknown/path`, {
      headers: { "x-merchant-id": String(credentials.public_key), "x-signature": signF(String(credentials.secret_key), "") },
    });
    expect(known.status).toBe(404);
  });

  it("spec 5.2: the adapter turns 401 for no key and for an unknown key into provider_auth_error", async () => {
    const { context } = await account();
    expect(await adapter.createPayment(context({ public_key: "" }), payment("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
    expect(await adapter.createPayment(context({ public_key: `dev_pub_${randomUUID()}` }), payment("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
    expect(await adapter.createPayment(context({ secret_key: "dev_sec_wrongwrongwrongwrongwrongwrong" }), payment("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
  });
});

describe("Provider F adapter against its sandbox", () => {
  it("maps every test card: approve, issuer_decline, insufficient_funds, invalid_cvv, unavailable, 3-D Secure pending", async () => {
    const { context } = await account();
    expect(await adapter.createPayment(context(), payment("4242424242424242"))).toMatchObject({
      kind: "succeeded",
      processedAmountMinor: 12_000n,
      providerReference: expect.stringMatching(/^ch_/),
    });
    expect(await adapter.createPayment(context(), payment("4000000000000002"))).toMatchObject({ kind: "declined", resolution: "issuer_decline" });
    expect(await adapter.createPayment(context(), payment("4000000000009995"))).toMatchObject({ kind: "declined", resolution: "insufficient_funds" });
    expect(await adapter.createPayment(context(), payment("4242424242424242", "120.00", {}, "000"))).toMatchObject({
      kind: "declined",
      resolution: "invalid_cvv",
    });
    expect(await adapter.createPayment(context(), payment("4000000000000119"))).toMatchObject({ kind: "soft_failed", resolution: "provider_unavailable" });
    expect(await adapter.createPayment(context(), payment("4000000000003220"))).toMatchObject({
      kind: "pending",
      redirectUrl: expect.stringContaining("/sandbox/3ds/provider-f/ch_"),
    });
  });

  it("an amount ending in .77: 75 % with allow_partially, insufficient_funds without", async () => {
    const { context } = await account();
    expect(await adapter.createPayment(context(), payment("4242424242424242", "20.77", { allow_partially: true }))).toMatchObject({
      kind: "succeeded",
      processedAmountMinor: 1_557n,
    });
    expect(await adapter.createPayment(context(), payment("4242424242424242", "20.77"))).toMatchObject({ kind: "declined", resolution: "insufficient_funds" });
  });

  it("3-D Secure pass and fail, read by the status request", async () => {
    const { context } = await account();
    for (const [answer, expected] of [
      ["pass", { kind: "succeeded", processedAmountMinor: 12_000n }],
      ["fail", { kind: "declined", resolution: "auth_3ds_failed" }],
    ] as const) {
      const instruction = payment("4000000000003220");
      const pending = await adapter.createPayment(context(), instruction);
      if (pending.kind !== "pending") throw new Error("expected pending");
      await completeThreeDs(t.db, "provider-f", pending.providerReference, answer);
      expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toMatchObject(expected);
    }
  });

  it("options.bypass_hpp: the charge goes without a card and the sandbox succeeds it at once (test mode)", async () => {
    const { context, connectionId } = await account();
    const { card: _card, ...instruction } = payment("4242424242424242", "120.00", { bypass_hpp: true });
    expect(await adapter.createPaymentWithoutCard!(context(), instruction)).toMatchObject({ kind: "succeeded", processedAmountMinor: 12_000n });
    const [record] = await recordsOf(connectionId);
    expect(record?.details).toMatchObject({ bypassHpp: true });
  });

  it("options.send_operation_context_on_return adds invoice_id and reference_id to the return URL F receives; without it the URL is as given", async () => {
    const { context, connectionId } = await account();
    await adapter.createPayment(context(), payment("4242424242424242", "120.00", { send_operation_context_on_return: true }));
    await adapter.createPayment(context(), payment("4242424242424242"));
    const urls = (await recordsOf(connectionId)).map((record) => (record.details as { returnUrl: string }).returnUrl);
    expect(urls).toContain("http://localhost:3000/pay/cpi_test?invoice_id=cpi_test&reference_id=order-7781");
    expect(urls).toContain("http://localhost:3000/pay/cpi_test");
  });

  it("getStatus by idempotency key and by charge id after a payment; an unknown one is a soft failure", async () => {
    const { context } = await account();
    const instruction = payment("4242424242424242");
    const paid = await adapter.createPayment(context(), instruction);
    if (paid.kind !== "succeeded") throw new Error("expected success");
    expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toEqual(paid);
    expect(await adapter.getStatus(context(), { providerReference: paid.providerReference, idempotencyKey: "x", direction: "payment" })).toEqual(paid);
    expect(await adapter.getStatus(context(), { idempotencyKey: randomUUID(), direction: "payment" })).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_unavailable",
    });
  });

  it("health check: ok, refused (public key and secret key blamed together), unreachable on a closed port", async () => {
    const { context, credentials } = await account();
    expect(await adapter.healthCheck(context())).toMatchObject({ kind: "ok" });
    // One refusal for both: the health check cannot blame the public key or the secret key alone.
    for (const wrong of [{ public_key: `dev_pub_${randomUUID()}` }, { secret_key: "dev_sec_wrongwrongwrongwrongwrongwrong" }]) {
      const refused = await adapter.healthCheck(context(wrong));
      expect(refused).toMatchObject({ kind: "credentials_refused" });
      expect(refused).not.toHaveProperty("field");
    }
    const closed = adapterContext(await closedPortUrl(), "provider-f", "h2h", credentials);
    expect(await adapter.healthCheck(closed)).toMatchObject({ kind: "unreachable" });
  });

  it("no full card number in the sandbox's record or the exchange log", async () => {
    const { context, connectionId } = await account();
    const ctx = context();
    await adapter.createPayment(ctx, payment("4242424242424242", "120.00", {}, "456"));
    const stored = JSON.stringify(await recordsOf(connectionId), (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
    const logged = JSON.stringify(ctx.exchanges.list());
    for (const text of [stored, logged]) {
      expect(text).not.toContain("4242424242424242");
      expect(text).not.toContain('"cvc":"456"');
    }
  });
});

describe("Provider F refunds: wire format and sandbox specifics", () => {
  it("POST /v1/refunds answers F's refund object; the charge status and refund status are read apart", async () => {
    const { context } = await account();
    const instruction = payment("4242424242424242");
    const paid = await adapter.createPayment(context(), instruction);
    const refund = refundOf({ instruction, outcome: paid }, "20.00");
    const ctx = context();
    const outcome = await adapter.refund(ctx, refund);
    expect(outcome).toMatchObject({ kind: "succeeded", providerReference: expect.stringMatching(/^re_/) });
    const exchange = ctx.exchanges.list().at(-1)!;
    expect(exchange.responseBody).toMatchObject({
      object: "refund",
      status: "succeeded",
      amount: 2_000,
      currency: "eur",
      charge: refund.paymentReference,
      reference: refund.refundId,
      livemode: false,
    });
    // By F's refund id too; a refund id is no charge id, nor a refund's reference a charge's.
    expect(
      await adapter.getRefundStatus(context(), {
        refundId: refund.refundId,
        providerReference: outcome.kind === "succeeded" ? outcome.providerReference : "",
        paymentReference: refund.paymentReference,
      }),
    ).toEqual(outcome);
    expect(
      await adapter.getStatus(context(), {
        providerReference: outcome.kind === "succeeded" ? outcome.providerReference : "",
        idempotencyKey: "x",
        direction: "payment",
      }),
    ).toMatchObject({ kind: "soft_failed" });
    expect(await adapter.getStatus(context(), { idempotencyKey: refund.refundId, direction: "payment" })).toMatchObject({ kind: "soft_failed" });
  });

  it("declines name F's failure codes: refund_declined (.32), amount_exceeds_captured", async () => {
    const { context } = await account();
    const instruction = payment("4242424242424242", "50.00");
    const paid = { instruction, outcome: await adapter.createPayment(context(), instruction) };
    expect(await adapter.refund(context(), refundOf(paid, "10.32"))).toMatchObject({ kind: "declined", message: expect.stringContaining("refund_declined") });
    expect(await adapter.refund(context(), refundOf(paid, "50.01"))).toMatchObject({
      kind: "declined",
      message: expect.stringContaining("amount_exceeds_captured"),
    });
  });

  it("a 3-D Secure charge is refundable once passed; a bypass_hpp charge made without a card is refundable", async () => {
    const { context } = await account();
    const threeDs = payment("4000000000003220");
    const pending = await adapter.createPayment(context(), threeDs);
    if (pending.kind !== "pending") throw new Error("expected pending");
    expect(await adapter.refund(context(), refundOf({ instruction: threeDs, outcome: pending }, "1.00"))).toMatchObject({
      kind: "declined",
      message: expect.stringContaining("charge_not_captured"),
    });
    await completeThreeDs(t.db, "provider-f", pending.providerReference, "pass");
    expect(await adapter.refund(context(), refundOf({ instruction: threeDs, outcome: pending }, "120.00"))).toMatchObject({ kind: "succeeded" });

    const { card: _card, ...bypass } = payment("4242424242424242", "120.00", { bypass_hpp: true });
    const outcome = await adapter.createPaymentWithoutCard!(context(), bypass);
    expect(await adapter.refund(context(), refundOf({ instruction: { ...bypass, card: threeDs.card }, outcome }, "120.00"))).toMatchObject({
      kind: "succeeded",
    });
  });

  it("spec 5.2 auth for refunds: no key, an unknown key, a prod_ key or a bad signature is answered 401", async () => {
    const { credentials } = await account();
    const body = JSON.stringify({ charge: "ch_x", amount: 100, currency: "eur", reference: randomUUID() });
    for (const [key, secret, code] of [
      ["", String(credentials.secret_key), "missing_merchant_id"],
      [`dev_pub_${randomUUID()}`, String(credentials.secret_key), "invalid_api_key"],
      [`prod_pub_${randomUUID()}`, String(credentials.secret_key), "unknown_merchant_id"],
      [String(credentials.public_key), "dev_sec_wrongwrongwrongwrongwrongwrong", "invalid_api_key"],
    ]) {
      const response = await fetch(`${base()}/v1/refunds`, { method: "POST", headers: { "x-merchant-id": key!, "x-signature": signF(secret!, body) }, body });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { type: "authentication_error", code } });
    }
  });
});

let refundAccount: Awaited<ReturnType<typeof account>>;
let otherCredentials: CredentialValues;

beforeAll(async () => {
  refundAccount = await account();
  // A second merchant with the same public key and another secret: the signature picks the account.
  ({ credentials: otherCredentials } = await createTestConnection(t.db, "provider-f", "h2h", {
    public_key: refundAccount.credentials.public_key,
    secret_key: `dev_sec_${randomBytes(24).toString("base64url")}`,
    currency: "EUR",
  }));
});

describeSandboxRefunds({
  provider: "Provider F",
  adapter,
  context: (overrides = {}) => refundAccount.context(overrides as CredentialValues),
  otherAccount: () => adapterContext(base(), "provider-f", "h2h", otherCredentials),
  payment: (card, amount) => payment(card, amount),
});

describeSandboxDisputes({
  provider: "Provider F",
  slug: "provider-f",
  adapter,
  db: () => t.db,
  context: () => refundAccount.context(),
  credentials: () => refundAccount.credentials,
  otherAccount: () => adapterContext(base(), "provider-f", "h2h", otherCredentials),
  payment: (card, amount) => payment(card, amount),
});
