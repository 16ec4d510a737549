import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PAYMENT_ATTEMPTS } from "@/app/api/commerce/payment-invoices/[id]/attempts/route";
import { POST as POST_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import { GET as GET_PAYOUT_ATTEMPTS } from "@/app/api/commerce/payout-invoices/[id]/attempts/route";
import { POST as PROCESS } from "@/app/api/commerce/payout-invoices/[id]/process/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { attemptListDocumentSchema, invoiceResourceSchema } from "@/lib/invoices/contract/resource-schemas";
import { logger } from "@/lib/logger";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { payWithCard } from "@/lib/processing/engine";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { send } from "./helpers/send";

/**
 * Auto_process, POST …/process, GET …/attempts, return_url and the new
 * invoice attributes (processed_amount, attempts, relationships.attempts), against a fake provider.
 */
const t = setUpTestDb();
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };

const fake = setUpFakeProvider({ replace: ["provider-a"], providerZ: true });
beforeEach(() => {
  fake.reset();
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Invoice = { id: string; attributes: Record<string, unknown>; relationships: Record<string, unknown>; links: Record<string, string> };

function payoutBody(m: InvoiceMerchant, options: Record<string, unknown>, cardNumber = "4242424242424242") {
  const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.options = options;
  body.data.attributes.fields = { card_number: cardNumber };
  return body;
}

async function payoutMerchant() {
  const m = await invoiceMerchant(t.db);
  const connection = await connect(t.db, m.merchantId, "provider-a", "h2h");
  return Object.assign(m, { connectionId: connection.id });
}

describe("payouts over the API", () => {
  it("auto_process sends the payout before the 201, with the full card number to the provider only", async () => {
    const m = await payoutMerchant();
    const answer = await send<Invoice>(
      POST_PAYOUT,
      {},
      { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body: payoutBody(m, { auto_process: true }) },
    );
    expect(answer.status).toBe(201);
    expect(invoiceResourceSchema.safeParse(answer.json.data).error).toBeUndefined();
    expect(answer.json.data.attributes).toMatchObject({ status: "processed", resolution: "ok", processed_amount: 250.75, attempts: 1 });
    expect(answer.json.data.relationships.attempts).toEqual({ links: { related: `${answer.json.data.links.self}/attempts` } });
    expect(fake.calls.map((call) => call.op)).toEqual(["payout"]);
    expect(fake.received[0]).toContain("4242424242424242");
    expect(answer.text).not.toContain("4242424242424242");
  });

  it("a retry of an auto_process payout whose first request died after the insert sends it, once", async () => {
    const m = await payoutMerchant();
    const body = payoutBody(m, { auto_process: true });
    // The first request stored the invoice and was killed before the provider call: nothing started it.
    const stored = await createInvoice(t.db, m.merchant, "payout", structuredClone(body));
    expect(stored.kind).toBe("created");
    expect(fake.calls).toEqual([]);

    const retry = await send<Invoice>(POST_PAYOUT, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body });
    expect(retry.status).toBe(200);
    expect(retry.json.data.attributes).toMatchObject({ status: "processed", attempts: 1 });
    const again = await send<Invoice>(POST_PAYOUT, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body });
    expect(again.status).toBe(200);
    expect(again.json.data.id).toBe(retry.json.data.id);
    expect(fake.calls.map((call) => call.op)).toEqual(["payout"]);
  });

  it("without auto_process waits in created until POST …/process; a second process is refused with 409", async () => {
    const m = await payoutMerchant();
    const created = await send<Invoice>(
      POST_PAYOUT,
      {},
      { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body: payoutBody(m, { auto_process: false }) },
    );
    expect(created.json.data.attributes).toMatchObject({ status: "created", attempts: 0, processed_amount: null });
    expect(fake.calls).toEqual([]);
    const id = created.json.data.id;
    const path = `/api/commerce/payout-invoices/${id}/process`;
    const processed = await send<Invoice, { id: string }>(PROCESS, { id }, { method: "POST", path, key: m.key });
    expect(processed.status).toBe(200);
    expect(processed.json.data.attributes).toMatchObject({ status: "processed", attempts: 1 });
    const again = await send<unknown, { id: string }>(PROCESS, { id }, { method: "POST", path, key: m.key });
    expect(again.status).toBe(409);
    expect(again.json.errors).toMatchObject([{ code: "invoice_final", status: "409" }]);
    expect(fake.calls).toHaveLength(1);

    const other = await invoiceMerchant(t.db);
    expect((await send<unknown, { id: string }>(PROCESS, { id }, { method: "POST", path, key: other.key })).status).toBe(404);
  });

  it("lists the attempts as invoice-attempt resources with their payout parts", async () => {
    const m = await payoutMerchant();
    const created = await send<Invoice>(
      POST_PAYOUT,
      {},
      { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body: payoutBody(m, { auto_process: false }) },
    );
    const id = created.json.data.id;
    fake.script.set(m.connectionId, [
      {
        kind: "succeeded",
        providerReference: "po-ref",
        processedAmountMinor: 25075n,
        parts: [
          { providerReference: "p1", amountMinor: 20000n, status: "succeeded" },
          { providerReference: "p2", amountMinor: 5075n, status: "succeeded" },
        ],
      },
    ]);
    await send<unknown, { id: string }>(PROCESS, { id }, { method: "POST", path: `/api/commerce/payout-invoices/${id}/process`, key: m.key });
    const path = `/api/commerce/payout-invoices/${id}/attempts`;
    const list = await send<unknown[], { id: string }>(GET_PAYOUT_ATTEMPTS, { id }, { path, key: m.key });
    expect(list.status).toBe(200);
    expect(attemptListDocumentSchema.safeParse(list.json).error).toBeUndefined();
    expect(list.json.data).toMatchObject([
      {
        type: "invoice-attempt",
        attributes: {
          seq: 1,
          reason: "routing_order",
          status: "succeeded",
          processed_amount: "250.75",
          provider_reference: "po-ref",
          payout_parts: [
            { amount: "200.00", status: "succeeded", provider_reference: "p1" },
            { amount: "50.75", provider_reference: "p2" },
          ],
        },
        relationships: { connection: { data: { type: "connection", id: m.connectionId } } },
      },
    ]);
    expect(list.text).not.toContain("exchanges");
    expect((await send<unknown, { id: string }>(GET_PAYOUT_ATTEMPTS, { id }, { path, key: (await invoiceMerchant(t.db)).key })).status).toBe(404);
  });
});

describe("payments over the API", () => {
  it("stores return_url, refuses a relative one, and lists a payment's attempts", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-z", "h2h");
    const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = { allow_partially: false };
    body.data.attributes.return_url = "https://shop.example.com/thanks?order=7";
    const created = await send<Invoice>(POST_PAYMENT, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body });
    expect(created.status).toBe(201);
    expect(created.json.data.attributes).toMatchObject({ status: "created", return_url: "https://shop.example.com/thanks?order=7" });

    const bad = structuredClone(body);
    bad.data.attributes.reference_id = newReference();
    bad.data.attributes.return_url = "/thanks";
    const refused = await send(POST_PAYMENT, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body: bad });
    expect(refused.status).toBe(422);
    expect(refused.json.errors.map((error) => error.source?.pointer)).toEqual(["/data/attributes/return_url"]);

    const id = created.json.data.id;
    await payWithCard(t.db, id, CARD);
    const list = await send<unknown[], { id: string }>(GET_PAYMENT_ATTEMPTS, { id }, { path: `/api/commerce/payment-invoices/${id}/attempts`, key: m.key });
    expect(list.json.data).toMatchObject([{ attributes: { status: "succeeded", processed_amount: "42.50" } }]);
  });
});
