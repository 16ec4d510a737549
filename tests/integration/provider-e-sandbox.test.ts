import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxRecords } from "@/lib/db/schema";
import type { PaymentInstruction } from "@/lib/providers/kit/adapter";
import type { CredentialValues } from "@/lib/providers";
import { providerEAdapter as adapter } from "@/lib/providers/provider-e/adapter";
import { authorizationHeader, signE, signingText } from "@/lib/providers/provider-e/wire";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { setUpTestDb, unique } from "./helpers/db";
import { describeSandboxDisputes } from "./helpers/sandbox-disputes";
import { describeSandboxRefunds, refundOf } from "./helpers/sandbox-refunds";
import { adapterContext, closedPortUrl, createTestConnection, serveSandboxes } from "./helpers/sandbox-http";

/** Provider E (spec 4.1, 5.1 note 5): requests signed with the merchant's private key, verified with its public key. */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
const base = () => `${sandbox.origin}/sandbox/provider-e`;

/** Samples share one merchant ID and key pair; a merchant ID of its own keeps each test's records apart. */
async function account(overrides: CredentialValues = {}) {
  const created = await createTestConnection(t.db, "provider-e", "h2h", {
    ...sampleCredentials("provider-e", "h2h", "test"),
    merchant_id: unique("E"),
    ...overrides,
  });
  return { ...created, context: (changes: CredentialValues = {}) => adapterContext(base(), "provider-e", "h2h", { ...created.credentials, ...changes }) };
}

const CUSTOMER = {
  reference_id: "cust-5001",
  name: "Erika Mustermann",
  email: "erika@example.com",
  phone: "+4930901820",
  date_of_birth: "1990-04-21",
  address: { country: "DE", city: "Berlin", full_address: "Heidestrasse 17, 51147 Berlin" },
};

function payment(card: string, amount = "75.00", options: { allowPartially?: boolean; cvc?: string } = {}): PaymentInstruction {
  const [units, cents = "00"] = amount.split(".");
  return {
    invoiceId: "cpi_test",
    attemptId: "att_test",
    idempotencyKey: randomUUID(),
    service: "payment_card_eur_hpp",
    currency: "EUR",
    amount,
    amountMinor: BigInt(units!) * 100n + BigInt(cents),
    allowPartially: options.allowPartially ?? false,
    card: { number: card, expiryMonth: 4, expiryYear: 2031, cvc: options.cvc ?? "123", holder: "Erika Mustermann" },
    customer: CUSTOMER,
    options: {},
    gatewayOptions: null,
    serviceFields: null,
    returnUrl: "http://localhost:3000/pay/cpi_test",
  };
}

/** A request signed by hand, to reach the sandbox's refusals directly. */
function signedFetch(path: string, merchantId: string, privateKey: string, timestamp = Math.floor(Date.now() / 1000)) {
  const url = new URL(`${base()}${path}`);
  const signature = signE(privateKey, signingText("GET", url.pathname, String(timestamp), ""));
  return fetch(url, { headers: { Authorization: authorizationHeader(merchantId, signature), "X-Timestamp": String(timestamp) } });
}

describe("Provider E adapter against its sandbox", () => {
  it("maps every test card: approve, issuer_decline, insufficient_funds, invalid_cvv, unavailable, 3-D Secure pending", async () => {
    const { context } = await account();
    expect(await adapter.createPayment(context(), payment("4242424242424242"))).toMatchObject({
      kind: "succeeded",
      processedAmountMinor: 7_500n,
      providerReference: expect.stringMatching(/^epay_/),
    });
    expect(await adapter.createPayment(context(), payment("4000000000000002"))).toMatchObject({ kind: "declined", resolution: "issuer_decline" });
    expect(await adapter.createPayment(context(), payment("4000000000009995"))).toMatchObject({ kind: "declined", resolution: "insufficient_funds" });
    expect(await adapter.createPayment(context(), payment("4242424242424242", "75.00", { cvc: "000" }))).toMatchObject({
      kind: "declined",
      resolution: "invalid_cvv",
    });
    expect(await adapter.createPayment(context(), payment("4000000000000119"))).toMatchObject({ kind: "soft_failed", resolution: "provider_unavailable" });
    const threeDs = await adapter.createPayment(context(), payment("4000000000003220"));
    expect(threeDs).toMatchObject({ kind: "pending", redirectUrl: expect.stringContaining(`${sandbox.origin}/sandbox/3ds/provider-e/epay_`) });
  });

  it("an amount ending in .77: 75 % with allow_partially, insufficient_funds without", async () => {
    const { context } = await account();
    expect(await adapter.createPayment(context(), payment("4242424242424242", "10.77", { allowPartially: true }))).toMatchObject({
      kind: "succeeded",
      processedAmountMinor: 807n,
    });
    expect(await adapter.createPayment(context(), payment("4242424242424242", "10.77"))).toMatchObject({ kind: "declined", resolution: "insufficient_funds" });
  });

  it("3-D Secure: the status request after a pass is succeeded, after a fail declined with auth_3ds_failed", async () => {
    const { context } = await account();
    for (const [answer, expected] of [
      ["pass", { kind: "succeeded", processedAmountMinor: 7_500n }],
      ["fail", { kind: "declined", resolution: "auth_3ds_failed" }],
    ] as const) {
      const instruction = payment("4000000000003220");
      const pending = await adapter.createPayment(context(), instruction);
      if (pending.kind !== "pending") throw new Error("expected pending");
      expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toMatchObject({ kind: "pending" });
      await completeThreeDs(t.db, "provider-e", pending.providerReference, answer);
      expect(
        await adapter.getStatus(context(), { providerReference: pending.providerReference, idempotencyKey: instruction.idempotencyKey, direction: "payment" }),
      ).toMatchObject(expected);
    }
  });

  it("getStatus by idempotency key and by E's payment id after a payment; an unknown one is a soft failure", async () => {
    const { context } = await account();
    const instruction = payment("4242424242424242");
    const paid = await adapter.createPayment(context(), instruction);
    expect(await adapter.getStatus(context(), { idempotencyKey: instruction.idempotencyKey, direction: "payment" })).toEqual(paid);
    if (paid.kind !== "succeeded") throw new Error("expected success");
    expect(await adapter.getStatus(context(), { providerReference: paid.providerReference, idempotencyKey: "x", direction: "payment" })).toEqual(paid);
    expect(await adapter.getStatus(context(), { idempotencyKey: randomUUID(), direction: "payment" })).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_unavailable",
    });
  });

  it("spec 5.1 note 5: a signature from another private key is refused with 401 (provider_auth_error); an unknown merchant and a stale timestamp too", async () => {
    const { context, credentials } = await account();
    const otherKey = generateKeyPair().privateKeyPem;
    expect(await adapter.createPayment(context({ private_key: otherKey }), payment("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
    const merchantId = String(credentials.merchant_id);
    const privateKey = String(credentials.private_key);
    // One refusal for both: it does not tell which merchant IDs exist.
    const refusal = await (await signedFetch("/v2/merchant", merchantId, otherKey)).text();
    expect(JSON.parse(refusal)).toEqual({ status: 401, errorCode: "unauthorized", message: "The keyId or the signature is wrong." });
    expect(await (await signedFetch("/v2/merchant", "E-NOBODY", privateKey)).text()).toBe(refusal);
    const stale = await signedFetch("/v2/merchant", merchantId, privateKey, Math.floor(Date.now() / 1000) - 3_600);
    expect(stale.status).toBe(401);
    expect(await stale.json()).toMatchObject({ errorCode: "stale_timestamp" });
    expect((await signedFetch("/v2/merchant", merchantId, privateKey)).status).toBe(200);
  });

  it("health check: ok, refused (merchant ID and private key blamed together; a key that cannot sign named), unreachable on a closed port", async () => {
    const { context, credentials } = await account();
    expect(await adapter.healthCheck(context())).toMatchObject({ kind: "ok" });
    // One refusal for both: the health check cannot blame the merchant ID or the private key alone.
    for (const wrong of [{ private_key: generateKeyPair().privateKeyPem }, { merchant_id: "E-NOBODY" }]) {
      const refused = await adapter.healthCheck(context(wrong));
      expect(refused).toMatchObject({ kind: "credentials_refused" });
      expect(refused).not.toHaveProperty("field");
    }
    expect(await adapter.healthCheck(context({ private_key: "not a key" }))).toMatchObject({ kind: "credentials_refused", field: "private_key" });
    expect(await adapter.healthCheck(context({ private_key: "" }))).toMatchObject({
      kind: "credentials_refused",
      field: "private_key",
      message: expect.stringContaining("no private key"),
    });
    expect(await adapter.createPayment(context({ private_key: "" }), payment("4242424242424242"))).toMatchObject({
      kind: "soft_failed",
      resolution: "provider_auth_error",
    });
    const closed = adapterContext(await closedPortUrl(), "provider-e", "h2h", credentials);
    expect(await adapter.healthCheck(closed)).toMatchObject({ kind: "unreachable" });
  });

  it("sends the customer with date_of_birth; keeps no full card number or CVC in its record or the exchange log", async () => {
    const { context, connectionId } = await account();
    const ctx = context();
    await adapter.createPayment(ctx, payment("4242424242424242", "75.00", { cvc: "987" }));
    const [record] = await t.db.select().from(sandboxRecords).where(eq(sandboxRecords.connectionId, connectionId));
    expect(record?.details).toMatchObject({ shopper: { dateOfBirth: "1990-04-21", name: "Erika Mustermann", address: { country: "DE" } } });
    const stored = JSON.stringify(record, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
    const logged = JSON.stringify(ctx.exchanges.list());
    for (const text of [stored, logged]) {
      expect(text).not.toContain("4242424242424242");
      expect(text).not.toContain('"cvc":"987"');
    }
  });
});

describe("Provider E refunds: its own wire format", () => {
  it("POST /v2/refunds names E's paymentId with the refund id as merchantReference, signed with the private key; both status paths read it back", async () => {
    const { context } = await account();
    const instruction = payment("4242424242424242", "75.00");
    const paid = { instruction, outcome: await adapter.createPayment(context(), instruction) };
    const ctx = context();
    const refund = refundOf(paid, "20.50");
    const taken = await adapter.refund(ctx, refund);
    expect(taken).toEqual({ kind: "succeeded", providerReference: expect.stringMatching(/^eref_/) });
    const [exchange] = ctx.exchanges.list();
    expect(exchange?.url).toBe(`${base()}/v2/refunds`);
    // The signature is hidden from the log; the adapter's unit test checks it against the public key.
    expect(exchange?.requestHeaders).toMatchObject({ Authorization: "[redacted]", "X-Timestamp": expect.stringMatching(/^\d+$/) });
    expect(exchange?.requestBody).toEqual({
      paymentId: refund.paymentReference,
      merchantReference: refund.refundId,
      amount: { value: "20.50", currency: "EUR" },
      reason: "Customer asked",
    });
    expect(exchange?.responseBody).toMatchObject({
      paymentId: refund.paymentReference,
      merchantReference: refund.refundId,
      resultCode: "Refunded",
      amount: { value: "20.50", currency: "EUR" },
    });
    if (taken.kind !== "succeeded") throw new Error("expected success");
    expect(await adapter.getRefundStatus(context(), { refundId: refund.refundId, paymentReference: refund.paymentReference })).toEqual(taken);
    expect(
      await adapter.getRefundStatus(context(), {
        refundId: refund.refundId,
        providerReference: taken.providerReference,
        paymentReference: refund.paymentReference,
      }),
    ).toEqual(taken);
    // A refund is no payment: E's payment status does not answer it, by its id or its reference.
    expect(await adapter.getStatus(context(), { providerReference: taken.providerReference, idempotencyKey: "x", direction: "payment" })).toMatchObject({
      kind: "soft_failed",
    });
    expect(await adapter.getStatus(context(), { idempotencyKey: refund.refundId, direction: "payment" })).toMatchObject({ kind: "soft_failed" });
  });

  it("spec 5.1 note 5: a refund signed with another valid private key is refused by the sandbox (401 unauthorized → provider_auth_error); one without a usable key is not sent", async () => {
    const { context } = await account();
    const instruction = payment("4242424242424242");
    const paid = { instruction, outcome: await adapter.createPayment(context(), instruction) };
    const ctx = context({ private_key: generateKeyPair().privateKeyPem });
    expect(await adapter.refund(ctx, refundOf(paid, "1.00"))).toMatchObject({
      kind: "refused",
      resolution: "provider_auth_error",
      message: expect.stringContaining("unauthorized"),
    });
    expect(ctx.exchanges.list()[0]).toMatchObject({ status: 401, responseBody: { errorCode: "unauthorized" } });
    const unsigned = context({ private_key: "not a key" });
    expect(await adapter.refund(unsigned, refundOf(paid, "1.00"))).toMatchObject({ kind: "refused", resolution: "provider_auth_error" });
    expect(unsigned.exchanges.list()).toEqual([]);
    expect(await adapter.refund(context(), refundOf(paid, "75.00"))).toMatchObject({ kind: "succeeded" });
  });

  it("3-D Secure: nothing to refund while the step waits or after a fail; after a pass the captured amount is refundable", async () => {
    const { context } = await account();
    for (const answer of ["pass", "fail"] as const) {
      const instruction = payment("4000000000003220", "75.00");
      const pending = { instruction, outcome: await adapter.createPayment(context(), instruction) };
      if (pending.outcome.kind !== "pending") throw new Error("expected pending");
      expect(await adapter.refund(context(), refundOf(pending, "75.00"))).toMatchObject({ kind: "declined", message: expect.stringContaining("not_captured") });
      await completeThreeDs(t.db, "provider-e", pending.outcome.providerReference, answer);
      expect(await adapter.refund(context(), refundOf(pending, "75.00"))).toMatchObject({ kind: answer === "pass" ? "succeeded" : "declined" });
    }
  });

  it("an unknown endpoint lists E's endpoints", async () => {
    const { credentials } = await account();
    const response = await signedFetch("/v2/refund", String(credentials.merchant_id), String(credentials.private_key));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ errorCode: "not_found", message: expect.stringContaining("POST /v2/refunds, GET /v2/refunds/{refundId}") });
  });
});

// The conformance suite: one E account and a second one with the same merchant ID and its own key pair.
let refunding: Awaited<ReturnType<typeof account>>;
let twin: Awaited<ReturnType<typeof account>>;
beforeAll(async () => {
  refunding = await account();
  const pair = generateKeyPair();
  twin = await account({ merchant_id: String(refunding.credentials.merchant_id), public_key: pair.publicKeyPem, private_key: pair.privateKeyPem });
});

describeSandboxRefunds({
  provider: "Provider E",
  adapter,
  context: (overrides = {}) => refunding.context(overrides as CredentialValues),
  otherAccount: () => twin.context(),
  // A key E cannot verify but the adapter can sign with, so the refusal is the sandbox's.
  wrongCredentials: { private_key: generateKeyPair().privateKeyPem },
  payment: (card, amount) => payment(card, amount),
});

describeSandboxDisputes({
  provider: "Provider E",
  slug: "provider-e",
  adapter,
  db: () => t.db,
  context: () => refunding.context(),
  credentials: () => refunding.credentials,
  otherAccount: () => twin.context(),
  payment: (card, amount) => payment(card, amount),
});
