import { count, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PROVIDERS } from "@/app/api/providers/route";
import { PATCH } from "@/app/api/routing/[id]/route";
import { POST as SIMULATE } from "@/app/api/routing/simulate/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { invoices } from "@/lib/db/schema";
import type { InvoiceResource } from "@/lib/invoices/contract";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { credentialsKey } from "@/lib/vault/vault-key";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { send, type Answer } from "./helpers/send";

/**
 * Provider capabilities, through the API a client uses: the registry serves each provider's
 * capabilities; routing passes over connections whose provider cannot do what the invoice asks
 * (`flow: "authorize"`, `gateway_options.cardgate.tokenize`) and says so in the invoice's routing
 * sentence and the simulator's; with no such connection the create is refused at the field that
 * asked, and nothing is stored.
 */
const t = setUpTestDb();
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];
const ORDER = "payment_card_eur_hpp:test";
const FLOW = "/data/attributes/flow";
const TOKENIZE = "/data/attributes/gateway_options/cardgate/tokenize";

beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const post = (m: InvoiceMerchant, overrides: Record<string, unknown> = {}, relationships?: unknown) => {
  const body = bodyFor(EUR, m.account, { reference_id: newReference(), ...overrides }) as { data: Record<string, unknown> };
  if (relationships) body.data.relationships = relationships;
  return send<InvoiceResource>(POST_PAYMENT, {}, { method: "POST", key: m.key, path: "/api/commerce/payment-invoices", body });
};
const read = async (m: InvoiceMerchant, id: string) =>
  (await send<InvoiceResource, { id: string }>(GET_PAYMENT, { id }, { key: m.key, path: `/api/commerce/payment-invoices/${id}` })).json.data;
const order = (m: InvoiceMerchant, ids: string[]) =>
  send(
    PATCH,
    { id: ORDER },
    { method: "PATCH", key: m.key, path: `/api/routing/${ORDER}`, body: { data: { type: "routing-order", attributes: { connection_ids: ids } } } },
  );
const simulate = (m: InvoiceMerchant, attributes: Record<string, unknown>) =>
  send<{ attributes: Record<string, unknown> }>(
    SIMULATE,
    {},
    { method: "POST", key: m.key, path: "/api/routing/simulate", body: { data: { type: "routing-simulation", attributes } } },
  );
const stored = async (m: InvoiceMerchant) => (await t.db.select({ n: count() }).from(invoices).where(eq(invoices.merchantId, m.merchantId)))[0]!.n;
const TOKENS = { cardgate: { tokenize: "" } };
const errorsOf = (answer: Answer) => answer.json.errors;

async function connected(...providers: ("provider-b" | "provider-c" | "provider-e" | "provider-f")[]) {
  const m = await invoiceMerchant(t.db);
  const ids: string[] = [];
  for (const provider of providers) ids.push((await connect(t.db, m.merchantId, provider, "h2h", { vaultKey: credentialsKey() })).id);
  expect((await order(m, ids)).status).toBe(200);
  return { m, ids };
}

describe("provider capabilities", () => {
  it("GET /api/providers serves each provider's capabilities as its folder declares them", async () => {
    const answer = await send<{ id: string; attributes: { capabilities: Record<string, unknown> } }[]>(GET_PROVIDERS, {}, { path: "/api/providers" });
    expect(answer.status).toBe(200);
    const table = Object.fromEntries(
      answer.json.data.map((provider) => {
        const { cardTokens, authorizeCapture, partialCapture, void: voids } = provider.attributes.capabilities;
        return [provider.id, [cardTokens, authorizeCapture, partialCapture, voids]];
      }),
    );
    expect(table).toEqual({
      "provider-a": [true, true, true, true],
      "provider-b": [true, true, true, true],
      "provider-c": [true, true, false, true],
      "provider-d": [true, false, false, false],
      "provider-e": [false, true, false, true],
      "provider-f": [true, false, false, false],
    });
    for (const provider of answer.json.data) {
      const capabilities = provider.attributes.capabilities;
      expect(capabilities.authorizationHoldHours === null).toBe(capabilities.authorizeCapture === false);
      expect(capabilities.note).toMatch(/\w/);
    }
  });

  it("an authorize invoice passes over a sale-only provider, and its routing sentence says why", async () => {
    const { m, ids } = await connected("provider-f", "provider-e");
    const [f, e] = ids as [string, string];
    const answer = await post(m, { flow: "authorize" });
    expect(answer.status).toBe(201);
    expect(answer.json.data.relationships?.connection?.data?.id).toBe(e);
    expect(answer.json.data.attributes.flow).toBe("authorize");
    expect(answer.json.data.attributes.routing?.explanation).toContain("Provider F cannot authorize now and capture later");

    // A charge still goes to the first of the order, and nothing is skipped for it.
    const charge = await post(m);
    expect(charge.json.data.relationships?.connection?.data?.id).toBe(f);
    expect(charge.json.data.attributes.routing?.explanation).not.toContain("cannot");
    expect((await read(m, answer.json.data.id)).attributes.routing?.explanation).toContain("Provider F cannot authorize now and capture later");
  });

  it("a payment that asks to save the card passes over a provider without card tokens", async () => {
    const { m, ids } = await connected("provider-e", "provider-f");
    const answer = await post(m, { gateway_options: TOKENS });
    expect(answer.status).toBe(201);
    expect(answer.json.data.relationships?.connection?.data?.id).toBe(ids[1]);
    expect(answer.json.data.attributes.routing?.explanation).toContain("Provider E cannot save cards for later charges");
  });

  it("no connected provider can: 422 at the field that asked, naming what is missing, and nothing stored", async () => {
    const sales = await connected("provider-f");
    const authorize = await post(sales.m, { flow: "authorize" });
    expect(authorize.status).toBe(422);
    expect(errorsOf(authorize)).toEqual([
      expect.objectContaining({
        code: "capability_not_offered",
        source: { pointer: FLOW },
        detail: expect.stringContaining("authorize now and capture later"),
      }),
    ]);
    expect(await stored(sales.m)).toBe(0);

    const noTokens = await connected("provider-e");
    const tokens = await post(noTokens.m, { gateway_options: TOKENS });
    expect(tokens.status).toBe(422);
    expect(errorsOf(tokens)).toEqual([
      expect.objectContaining({
        code: "capability_not_offered",
        source: { pointer: TOKENIZE },
        detail: expect.stringContaining("save cards for later charges"),
      }),
    ]);
    expect(await stored(noTokens.m)).toBe(0);

    // E authorizes but keeps no cards, F keeps cards but only sells: neither can do both.
    const split = await connected("provider-e", "provider-f");
    const both = await post(split.m, { flow: "authorize", gateway_options: TOKENS });
    expect(both.status).toBe(422);
    expect(errorsOf(both)).toEqual([
      expect.objectContaining({
        code: "capability_not_offered",
        detail: expect.stringContaining("authorize now and capture later and save cards for later charges"),
      }),
    ]);
    expect(await stored(split.m)).toBe(0);

    // Provider B can do both.
    const b = await connected("provider-e", "provider-f", "provider-b");
    const taken = await post(b.m, { flow: "authorize", gateway_options: TOKENS });
    expect(taken.status).toBe(201);
    expect(taken.json.data.relationships?.connection?.data?.id).toBe(b.ids[2]);
  });

  it("a pin to a connection whose provider cannot is refused at the field that asked", async () => {
    const { m, ids } = await connected("provider-f");
    const answer = await post(m, { flow: "authorize" }, { connection: { data: { type: "connection", id: ids[0] } } });
    expect(answer.status).toBe(422);
    expect(errorsOf(answer)).toEqual([
      expect.objectContaining({
        code: "capability_not_offered",
        source: { pointer: FLOW },
        detail: expect.stringContaining("Provider F cannot authorize now and capture later"),
      }),
    ]);
    expect(await stored(m)).toBe(0);
  });

  it("the simulator says the same, and a flow it does not know is refused at flow", async () => {
    const { m, ids } = await connected("provider-f", "provider-b");
    const simulated = await simulate(m, { service: "payment_card_eur_hpp", test_mode: true, amount: "10.00", flow: "authorize" });
    expect(simulated.status).toBe(200);
    expect(simulated.json.data.attributes).toMatchObject({
      connection_ids: [ids[1]],
      explanation: expect.stringContaining("Provider F cannot authorize now and capture later"),
    });
    const sale = await simulate(m, { service: "payment_card_eur_hpp", test_mode: true, amount: "10.00", tokenize: true });
    expect(sale.json.data.attributes).toMatchObject({ connection_ids: ids });

    const bad = await simulate(m, { service: "payment_card_eur_hpp", test_mode: true, amount: "10.00", flow: "capture" });
    expect(bad.status).toBe(422);
    expect(errorsOf(bad)).toEqual([expect.objectContaining({ source: { pointer: "/data/attributes/flow" } })]);
    const badCreate = await post(m, { flow: "capture" });
    expect(badCreate.status).toBe(422);
    expect(errorsOf(badCreate)).toEqual([expect.objectContaining({ source: { pointer: FLOW }, detail: 'flow must be "charge" or "authorize"' })]);
  });
});
