import { count, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { GET as GET_ORDER, PATCH } from "@/app/api/routing/[id]/route";
import { POST as SIMULATE } from "@/app/api/routing/simulate/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { credentialsKey } from "@/lib/vault/vault-key";
import { createApiKey } from "@/lib/api-keys/queries";
import { connections, invoiceAttempts, invoices, routingVersions } from "@/lib/db/schema";
import type { InvoiceResource } from "@/lib/invoices/contract";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { payWithCard } from "@/lib/processing/engine";
import type { RoutingOrderAttributes } from "@/lib/api/routing-resource";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, disable, invoiceMerchant, newReference, storedInvoiceJson, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxes } from "./helpers/sandbox-http";
import { errorsOf, send } from "./helpers/send";

/**
 * Routing rules through the entry points a merchant uses: rules saved with PATCH /api/routing/{id}
 * (refused at save when they could never route), invoices created through the API and paid with a
 * card (card conditions apply at Pay), the `routing` attribute's sentence, and the simulator.
 */
const t = setUpTestDb();
serveSandboxes(() => t.db, { asAppUrl: true });
const ORDER = "payment_card_eur_hpp:test";
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"] as { data: { attributes: { customer: { address: Record<string, string> } } } };

beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function merchant() {
  const m = await invoiceMerchant(t.db);
  const b = (await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() })).id;
  const f = (await connect(t.db, m.merchantId, "provider-f", "h2h", { vaultKey: credentialsKey() })).id;
  return { m, b, f };
}

const patch = (m: InvoiceMerchant, attributes: Record<string, unknown>) =>
  send<{ attributes: RoutingOrderAttributes }, { id: string }>(
    PATCH,
    { id: ORDER },
    { method: "PATCH", key: m.key, path: `/api/routing/${ORDER}`, body: { data: { type: "routing-order", attributes } } },
  );
const order = async (m: InvoiceMerchant) =>
  (await send<{ attributes: RoutingOrderAttributes }, { id: string }>(GET_ORDER, { id: ORDER }, { key: m.key, path: `/api/routing/${ORDER}` })).json.data
    .attributes;
const simulate = (m: InvoiceMerchant, attributes: Record<string, unknown>) =>
  send<{ attributes: Record<string, unknown> }>(
    SIMULATE,
    {},
    { method: "POST", key: m.key, path: "/api/routing/simulate", body: { data: { type: "routing-simulation", attributes } } },
  );

async function create(m: InvoiceMerchant, amount: string, country: string): Promise<InvoiceResource> {
  const customer = { ...EUR.data.attributes.customer, address: { ...EUR.data.attributes.customer.address, country } };
  const answer = await send<InvoiceResource>(
    POST_PAYMENT,
    {},
    {
      method: "POST",
      key: m.key,
      path: "/api/commerce/payment-invoices",
      body: bodyFor(EUR, m.account, { reference_id: newReference(), amount, customer }),
    },
  );
  if (answer.status !== 201) throw new Error(`expected 201, got ${answer.status} ${answer.text}`);
  return answer.json.data;
}
const read = async (m: InvoiceMerchant, id: string) =>
  (await send<InvoiceResource, { id: string }>(GET_PAYMENT, { id }, { key: m.key, path: `/api/commerce/payment-invoices/${id}` })).json.data;

const cascade = (ids: string[]) => ({ kind: "cascade", connection_ids: ids });

describe("routing rules", () => {
  it("refuses at save, with a sentence at the rule, a rule that could never take an invoice; nothing is saved", async () => {
    const { m, b, f } = await merchant();
    await disable(t.db, m.merchantId, f);
    const refused = await patch(m, {
      rules: [
        { name: "France", conditions: { customer_countries: ["FR"] }, outcome: cascade([f]) },
        {
          name: "Split",
          outcome: {
            kind: "split",
            branches: [
              { weight: 60, connection_ids: [b] },
              { weight: 30, connection_ids: [b] },
            ],
          },
        },
        { name: "Range", conditions: { amount_min: "50.00", amount_max: "10.00" }, outcome: cascade([b]) },
        { name: "Cents", conditions: { amount_min: "1.001" }, outcome: cascade([b]) },
      ],
    });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual([
      ["/data/attributes/rules/0/outcome/connection_ids", "no_enabled_connection"],
      ["/data/attributes/rules/1/outcome/branches", "split_total"],
      ["/data/attributes/rules/2/conditions/amount_max", "empty_range"],
      ["/data/attributes/rules/3/conditions/amount_min", "invalid_amount"],
    ]);
    const details = (refused.json as unknown as { errors: { detail: string }[] }).errors.map((error) => error.detail);
    expect(details[0]).toMatch(
      /^Rule 1 “France” sends invoices only to .+, and none of it is enabled: enable one or add an enabled connection that offers payment_card_eur_hpp$/,
    );
    expect(details[1]).toBe("Rule 2 “Split”: the shares add up to 90%, not 100%");
    const bad = await patch(m, { rules: [{ name: "", outcome: { kind: "random" } }] });
    expect(errorsOf(bad).map(([pointer]) => pointer)).toEqual(["/data/attributes/rules/0/name", "/data/attributes/rules/0/outcome/kind"]);
    expect(await order(m)).toMatchObject({ rules: [], version: 0 });
  });

  it("routes by the first rule that applies and says so on the invoice; an invoice no rule fits follows the routing order", async () => {
    const { m, b, f } = await merchant();
    const saved = await patch(m, {
      connection_ids: [b, f],
      rules: [{ name: "Big French", conditions: { amount_min: "100.00", customer_countries: ["FR"] }, outcome: cascade([f, b]) }],
    });
    expect(saved.status).toBe(200);
    expect(saved.json.data.attributes).toMatchObject({ connection_ids: [b, f], version: 1, rules: [{ name: "Big French" }] });

    const big = await create(m, "150.00", "FR");
    expect(big.relationships.connection.data?.id).toBe(f);
    expect(big.attributes.routing).toEqual({
      reason: "routing_order",
      rule: { position: 1, name: "Big French" },
      branch: null,
      order: [f, b],
      decided_at: "creation",
      success_rate: null,
      explanation: expect.stringMatching(/^Rule 1 “Big French” matched and sent it to .+; if it fails softly, .+ is tried next\.$/),
    });
    for (const [amount, country] of [
      ["99.99", "FR"],
      ["150.00", "GB"],
    ] as const) {
      const other = await create(m, amount, country);
      expect(other.relationships.connection.data?.id, `${amount} ${country}`).toBe(b);
      expect(other.attributes.routing).toMatchObject({
        rule: null,
        order: [b, f],
        explanation: expect.stringContaining("No rule applied, so the default rule"),
      });
    }
  });

  it("routes again at Pay when a rule on the card applies once the card is known, and the invoice says so", async () => {
    const { m, b, f } = await merchant();
    expect(
      (await patch(m, { connection_ids: [b, f], rules: [{ name: "Visa cards", conditions: { card_brands: ["visa"] }, outcome: cascade([f]) }] })).status,
    ).toBe(200);
    const invoice = await create(m, "20.00", "GB");
    expect(invoice.relationships.connection.data?.id).toBe(b);
    expect(invoice.attributes.routing?.explanation).toContain("Rule 1 “Visa cards” depends on the card and is checked again when it is known.");

    const paid = await payWithCard(t.db, invoice.id, { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, holder: "Test Holder", cvc: "123" });
    expect(paid).toMatchObject({ kind: "finished", invoice: { status: "processed", connectionId: f } });
    const after = await read(m, invoice.id);
    expect(after.attributes.routing).toMatchObject({ reason: "routing_order", rule: { position: 1, name: "Visa cards" }, order: [f], decided_at: "pay" });
    expect(after.attributes.routing?.explanation).toContain("Card: Visa, issued in US.");
    expect(after.attributes.routing?.explanation).toContain("Routed again at Pay once the card was known");
    const attempts = await t.db.select({ connectionId: invoiceAttempts.connectionId }).from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, invoice.id));
    expect(attempts).toEqual([{ connectionId: f }]);
    expect(await storedInvoiceJson(t.db, invoice.id)).not.toContain("4242424242424242");
  });

  it("simulates the same decision without creating anything, on the saved rules or a draft", async () => {
    const { m, b, f } = await merchant();
    await patch(m, {
      connection_ids: [b, f],
      rules: [{ name: "Big French", conditions: { amount_min: "100.00", customer_countries: ["FR"] }, outcome: cascade([f, b]) }],
    });
    const before = await t.db.select({ n: count() }).from(invoices).where(eq(invoices.merchantId, m.merchantId));
    const real = await create(m, "150.00", "FR");
    const simulated = await simulate(m, { service: "payment_card_eur_hpp", test_mode: true, amount: "150.00", customer_country: "FR" });
    expect(simulated.status).toBe(200);
    expect(simulated.json.data.attributes).toMatchObject({
      mode: "test",
      version: 1,
      rule: { position: 1, name: "Big French" },
      connection_ids: [f, b],
      explanation: real.attributes.routing?.explanation,
    });

    const draft = await simulate(m, {
      service: "payment_card_eur_hpp",
      test_mode: true,
      amount: 10,
      card_bin: "555555",
      draw: 80,
      rules: [
        { name: "Visa", conditions: { card_brands: ["visa"] }, outcome: cascade([b]) },
        {
          name: "70/30",
          outcome: {
            kind: "split",
            branches: [
              { weight: 70, connection_ids: [b] },
              { weight: 30, connection_ids: [f] },
            ],
          },
        },
      ],
    });
    expect(draft.json.data.attributes).toMatchObject({
      version: null,
      rule: { position: 2, name: "70/30" },
      branch: { position: 2, weight: 30, draw: 80 },
      connection_ids: [f],
      card: { brand: "mastercard", country: "US" },
    });
    const after = await t.db.select({ n: count() }).from(invoices).where(eq(invoices.merchantId, m.merchantId));
    expect(after[0]!.n).toBe(before[0]!.n + 1);
    expect(await order(m)).toMatchObject({ rules: [{ name: "Big French" }], version: 1 });

    // Another merchant's connection in a draft is no connection of this merchant: passed over, its label never shown.
    const other = await merchant();
    const foreign = await simulate(m, {
      service: "payment_card_eur_hpp",
      test_mode: true,
      amount: "1.00",
      rules: [{ name: "Theirs", outcome: cascade([other.f]) }],
    });
    expect(foreign.json.data.attributes).toMatchObject({
      rule: null,
      connection_ids: [b, f],
      skipped: [{ id: other.f, why: "deleted" }],
      fell_through: [{ position: 1, name: "Theirs" }],
    });
    const [theirs] = await t.db.select({ label: connections.label }).from(connections).where(eq(connections.id, other.f));
    expect(JSON.stringify(foreign.json)).not.toContain(theirs!.label);

    const refused = await simulate(m, { service: "payment_card_eur_hpp", test_mode: true, amount: "ten", card_bin: "4242424242424242", draw: 100 });
    expect(errorsOf(refused)).toEqual([
      ["/data/attributes/card_bin", "invalid_format"],
      ["/data/attributes/draw", "too_big"],
    ]);
    expect(errorsOf(await simulate(m, { service: "payment_card_eur_hpp", test_mode: true, amount: "ten" }))).toEqual([
      ["/data/attributes/amount", "invalid_amount"],
    ]);
    expect(errorsOf(await simulate(m, { service: "nothing", test_mode: true, amount: "1" }))).toEqual([["/data/attributes/service", "unknown_service"]]);

    // The simulator changes nothing: a read-only key may ask it, and still may not save rules.
    const reader = (await createApiKey(t.db, { merchantId: m.merchantId, name: "reader", mode: "test", scope: "read_only" })).key;
    const asReader = await send<{ attributes: Record<string, unknown> }>(
      SIMULATE,
      {},
      {
        method: "POST",
        key: reader,
        path: "/api/routing/simulate",
        body: { data: { type: "routing-simulation", attributes: { service: "payment_card_eur_hpp", test_mode: true, amount: "150.00" } } },
      },
    );
    expect(asReader.status, asReader.text).toBe(200);
    const saveAsReader = await send(
      PATCH,
      { id: ORDER },
      { method: "PATCH", key: reader, path: `/api/routing/${ORDER}`, body: { data: { type: "routing-order", attributes: { connection_ids: [f, b] } } } },
    );
    expect(errorsOf(saveAsReader)).toEqual([["(none)", "insufficient_scope"]]);
  });

  it("two first saves of one routing at once both answer, and the history holds versions 1 and 2", async () => {
    const { m, b, f } = await merchant();
    const [one, two] = await Promise.all([
      patch(m, { connection_ids: [f, b] }),
      patch(m, { connection_ids: [b, f], rules: [{ name: "Big", conditions: { amount_min: "100.00" }, outcome: cascade([f]) }] }),
    ]);
    expect([one.status, two.status], `${one.text} ${two.text}`).toEqual([200, 200]);
    const versions = await t.db.select({ version: routingVersions.version }).from(routingVersions).where(eq(routingVersions.merchantId, m.merchantId));
    expect(versions.map((row) => row.version).sort()).toEqual([1, 2]);
  });
});
