import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { GET as PAY_PAGE } from "@/app/(public)/pay/[id]/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { POST as CREATE_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as LIST_METHODS } from "@/app/api/commerce/payment-methods/route";
import { DELETE as DELETE_METHOD, GET as GET_METHOD } from "@/app/api/commerce/payment-methods/[id]/route";
import { buildOpenApiDocument, SAVED_CARD_EXAMPLE_PROVIDER } from "@/lib/api/openapi";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { createApiKey } from "@/lib/api-keys/queries";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { invoices, paymentMethods, sandboxRecords, webhookEvents } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { renderEventBody } from "@/lib/webhooks/body";
import { listAttempts } from "@/lib/processing/attempts";
import { payWithCard, resumeAfterRedirect } from "@/lib/processing/engine";
import type { ConnectionKind } from "@/lib/providers";
import { newestChargeableCard } from "@/lib/payment-methods/store";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { decryptSecret } from "@/lib/vault";
import { credentialsKey } from "@/lib/vault/vault-key";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxes } from "./helpers/sandbox-http";
import { errorsOf, send } from "./helpers/send";

/**
 * Saved cards through every sandbox whose provider keeps cards (A, B, C, D, F): a payment
 * with gateway_options.cardgate.tokenize saves the card once paid, the saved card is charged again
 * at creation without the hosted page (3-D Secure included where the provider has it), detached,
 * and then refused. The token and the card number are never in an answer.
 */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const CARD = "4242424242424242";
const THREE_DS_CARD = "4000000000003220";
const card = (number: string) => ({ number, expiryMonth: 11, expiryYear: 2031, holder: "Test Holder", cvc: "123" });

type Body = { data: Record<string, unknown> & { attributes: Record<string, unknown> } };
type Resource = { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id: string } }> };

const PROVIDERS: { provider: string; kind: ConnectionKind; template: string; threeDs: boolean; brand: string | null }[] = [
  { provider: "provider-a", kind: "provider_account", template: "a-payment", threeDs: true, brand: "visa" },
  { provider: "provider-b", kind: "h2h", template: "b-payment", threeDs: true, brand: "visa" },
  { provider: "provider-c", kind: "provider_account", template: "c-payment-amd", threeDs: true, brand: "visa" },
  // D does no 3-D Secure (spec 4.1 example) and names no brand.
  { provider: "provider-d", kind: "h2h", template: "d-payment", threeDs: false, brand: null },
  { provider: "provider-f", kind: "h2h", template: "f-payment", threeDs: true, brand: "visa" },
];

/** The template's body with test_mode, a customer reference in whichever placement the example uses, and tokenize if asked. */
function paymentBody(m: InvoiceMerchant, template: string, options: { customer?: string | null; tokenize?: boolean; paymentMethod?: string } = {}): Body {
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() }) as never as Body;
  const attributes = body.data.attributes;
  attributes.test_mode = true;
  // F's example bypasses the hosted page (F collects the card itself): here the card is typed on the hosted page.
  if (attributes.options) attributes.options = { ...(attributes.options as object), bypass_hpp: undefined };
  const gateway = (attributes.gateway_options ?? {}) as Record<string, unknown>;
  if (options.tokenize) attributes.gateway_options = { ...gateway, cardgate: { tokenize: "" } };
  else if (gateway.cardgate) attributes.gateway_options = { ...gateway, cardgate: undefined };
  if (options.customer !== null) {
    const reference = options.customer ?? "cust-1";
    const placed = attributes.customer ?? body.data.customer ?? (attributes.gateway_options as { customer?: unknown } | undefined)?.customer;
    if (placed && typeof placed === "object") (placed as Record<string, unknown>).reference_id = reference;
    else attributes.customer = { reference_id: reference };
  }
  if (options.paymentMethod) body.data.relationships = { payment_method: { data: { type: "payment-methods", id: options.paymentMethod } } };
  return JSON.parse(JSON.stringify(body)) as Body;
}

const create = (m: InvoiceMerchant, body: Body) =>
  send<Resource>(CREATE_PAYMENT, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body });
const readMethod = (m: InvoiceMerchant, id: string) =>
  send<Resource, { id: string }>(GET_METHOD, { id }, { path: `/api/commerce/payment-methods/${id}`, key: m.key });
const listMethods = (m: InvoiceMerchant, customer: string) =>
  send<Resource[]>(LIST_METHODS, {}, { path: `/api/commerce/payment-methods?filter[customer_reference]=${encodeURIComponent(customer)}`, key: m.key });

async function tokenOf(id: string): Promise<string> {
  const [row] = await t.db.select({ sealed: paymentMethods.tokenSealed }).from(paymentMethods).where(eq(paymentMethods.id, id));
  return decryptSecret(row!.sealed, credentialsKey());
}

/** Pays a tokenizing invoice on the hosted page's entry point (3-D Secure passed when asked) and returns its payment method's id. */
async function saveCard(m: InvoiceMerchant, template: string, number: string, customer: string): Promise<{ invoiceId: string; methodId: string }> {
  const created = await create(m, paymentBody(m, template, { tokenize: true, customer }));
  expect(created.status, created.text).toBe(201);
  const invoiceId = created.json.data.id;
  expect((await payWithCard(t.db, invoiceId, card(number))).kind).toBe("finished");
  const invoice = await send<Resource, { id: string }>(GET_PAYMENT, { id: invoiceId }, { path: `/api/commerce/payment-invoices/${invoiceId}`, key: m.key });
  expect(invoice.json.data.attributes.status).toBe("processed");
  const methodId = invoice.json.data.relationships.payment_method?.data?.id;
  expect(methodId).toMatch(/^pm_/);
  return { invoiceId, methodId: methodId! };
}

describe.each(PROVIDERS)("saved cards through $provider's sandbox", ({ provider, kind, template, brand }) => {
  it("saves the card once paid, charges it again without the card, detaches it (the provider forgets it), then refuses it", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, provider, kind, { vaultKey: credentialsKey() });
    const customer = `cust-${provider}`;
    const created = await create(m, paymentBody(m, template, { tokenize: true, customer }));
    expect(created.status, created.text).toBe(201);
    expect((await payWithCard(t.db, created.json.data.id, card(CARD))).kind).toBe("finished");

    const list = await listMethods(m, customer);
    expect(list.status).toBe(200);
    expect(list.json.data).toHaveLength(1);
    const method = list.json.data[0]!;
    expect(method.attributes).toMatchObject({
      customer_reference: customer,
      card: { brand, last_four: "4242", expiry_month: 11, expiry_year: 2031 },
      provider,
      test_mode: true,
      usable: true,
      detached_at: null,
    });
    expect(method.relationships.connection!.data!.id).toBe(connection.id);
    const token = await tokenOf(method.id);
    expect(token.length).toBeGreaterThan(8);
    expect(list.text).not.toContain(token);
    expect(list.text).not.toContain(CARD);
    // The invoice that saved it links it; its status_changed event carries it in `included` material.
    const source = await send<Resource, { id: string }>(
      GET_PAYMENT,
      { id: created.json.data.id },
      { path: `/api/commerce/payment-invoices/${created.json.data.id}`, key: m.key },
    );
    expect(source.json.data.relationships.payment_method!.data!.id).toBe(method.id);
    const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.merchantId, m.merchantId));
    expect(events.map((event) => event.type)).toContain("payment_method.created");
    const processedEvent = events.find((event) => event.type === "invoice.status_changed" && (event.invoice as { status?: string }).status === "processed");
    expect(processedEvent?.paymentMethod).toMatchObject({ id: method.id, lastFour: "4242" });
    expect(JSON.stringify(events)).not.toContain(token);
    // What the merchant's endpoint receives: the invoice with its payment method in `included`, and payment_method.created with the card.
    const delivered = JSON.parse(renderEventBody(processedEvent!)) as { data: Resource; included: Resource[] };
    expect(delivered.included).toEqual([expect.objectContaining({ type: "payment-methods", id: method.id })]);
    const createdEvent = events.find((event) => event.type === "payment_method.created")!;
    expect(renderEventBody(createdEvent)).not.toContain(token);
    expect(JSON.parse(renderEventBody(createdEvent))).toMatchObject({
      data: { type: "payment-methods", id: method.id, attributes: { card: { last_four: "4242" } } },
    });

    // Charged again at creation, server to server: the answer is the outcome.
    const again = await create(m, paymentBody(m, template, { customer, paymentMethod: method.id }));
    expect(again.status, again.text).toBe(201);
    expect(again.json.data.attributes.status).toBe("processed");
    expect(again.json.data.relationships.payment_method!.data!.id).toBe(method.id);
    expect(again.text).not.toContain(token);
    const [attempt] = await listAttempts(t.db, again.json.data.id);
    expect(attempt).toMatchObject({ connectionId: connection.id, status: "succeeded" });
    expect(JSON.stringify(attempt!.exchanges)).not.toContain(token);

    // Detached: 204, the sandbox forgets the token, and a later charge is refused before anything is sent.
    const removed = await send(DELETE_METHOD, { id: method.id }, { method: "DELETE", path: `/api/commerce/payment-methods/${method.id}`, key: m.key });
    expect(removed.status).toBe(204);
    const [kept] = await t.db
      .select()
      .from(sandboxRecords)
      .where(and(eq(sandboxRecords.provider, provider), eq(sandboxRecords.reference, token)));
    expect(kept?.status).toBe("detached");
    expect((await readMethod(m, method.id)).json.data.attributes).toMatchObject({ usable: false, detached_at: expect.any(String) });
    const refused = await create(m, paymentBody(m, template, { customer, paymentMethod: method.id }));
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual([["/data/relationships/payment_method/data/id", "payment_method_detached"]]);
  });
});

describe.each(PROVIDERS.filter((entry) => entry.threeDs))("3-D Secure on a saved card through $provider's sandbox", ({ provider, kind, template }) => {
  it("3-D Secure on a saved card: the charge answers process_pending with hpp_url, and passing the step processes it", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, provider, kind, { vaultKey: credentialsKey() });
    const customer = `cust-3ds-${provider}`;
    const created = await create(m, paymentBody(m, template, { tokenize: true, customer }));
    const first = await payWithCard(t.db, created.json.data.id, card(THREE_DS_CARD));
    expect(first.kind).toBe("redirect");
    const [firstAttempt] = await listAttempts(t.db, created.json.data.id);
    await completeThreeDs(t.db, provider, firstAttempt!.providerReference!, "pass");
    expect((await resumeAfterRedirect(t.db, created.json.data.id)).status).toBe("processed");
    const [method] = (await listMethods(m, customer)).json.data;
    expect(method!.attributes.card).toMatchObject({ last_four: "3220" });

    const charged = await create(m, paymentBody(m, template, { customer, paymentMethod: method!.id }));
    expect(charged.status, charged.text).toBe(201);
    expect(charged.json.data.attributes).toMatchObject({ status: "process_pending", hpp_url: expect.stringContaining(`/pay/${charged.json.data.id}`) });
    const [attempt] = await listAttempts(t.db, charged.json.data.id);
    expect(attempt!.redirectUrl).toContain(`${sandbox.origin}/sandbox/3ds/${provider}/`);
    // The hosted page offers the step and asks for no card.
    const page = await PAY_PAGE(new Request(`${sandbox.origin}/pay/${charged.json.data.id}`), { params: Promise.resolve({ id: charged.json.data.id }) });
    const pageHtml = await page.text();
    expect(pageHtml).toContain("Continue to 3-D Secure");
    expect(pageHtml).not.toContain('data-testid="card-form"');
    await completeThreeDs(t.db, provider, attempt!.providerReference!, "pass");
    expect((await resumeAfterRedirect(t.db, charged.json.data.id)).status).toBe("processed");
  });
});

describe("saved cards: refusals", () => {
  it("tokenize asked with a value but no customer reference is 422 naming the field, and nothing is stored", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const body = paymentBody(m, "b-payment", { tokenize: true, customer: null });
    (body.data.attributes.gateway_options as { cardgate: { tokenize: string } }).cardgate.tokenize = "1";
    const answer = await create(m, body);
    expect(answer.status).toBe(422);
    expect(errorsOf(answer)).toEqual([["/data/attributes/customer/reference_id", "required"]]);
    expect(await t.db.select().from(invoices).where(eq(invoices.merchantId, m.merchantId))).toEqual([]);
  });

  it("the spec's empty tokenize without a customer reference (its C and D examples) is accepted, paid, and saves no card", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const created = await create(m, paymentBody(m, "b-payment", { tokenize: true, customer: null }));
    expect(created.status, created.text).toBe(201);
    expect((await payWithCard(t.db, created.json.data.id, card(CARD))).kind).toBe("finished");
    expect(await t.db.select().from(paymentMethods).where(eq(paymentMethods.merchantId, m.merchantId))).toEqual([]);
  });

  it("another merchant's payment method is 404 and can never be charged; an unknown one is refused at its pointer", async () => {
    const owner = await invoiceMerchant(t.db);
    await connect(t.db, owner.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const { methodId } = await saveCard(owner, "b-payment", CARD, "cust-x");
    const other = await invoiceMerchant(t.db);
    await connect(t.db, other.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    expect((await readMethod(other, methodId)).status).toBe(404);
    // Nor is it in the other merchant's list, even filtered by the same customer reference.
    const othersList = await listMethods(other, "cust-x");
    expect(othersList.status).toBe(200);
    expect(othersList.json.data).toEqual([]);
    expect((await listMethods(owner, "cust-x")).json.data.map((method) => method.id)).toEqual([methodId]);
    const stolen = await create(other, paymentBody(other, "b-payment", { paymentMethod: methodId }));
    expect(stolen.status).toBe(422);
    expect(errorsOf(stolen)).toEqual([["/data/relationships/payment_method/data/id", "payment_method_not_found"]]);
    expect((await send(DELETE_METHOD, { id: methodId }, { method: "DELETE", path: `/api/commerce/payment-methods/${methodId}`, key: other.key })).status).toBe(
      404,
    );
    expect((await readMethod(owner, methodId)).json.data.attributes.usable).toBe(true);
  });

  it("a test payment method is not found with a live key (a key sees only its mode)", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const { methodId } = await saveCard(m, "b-payment", CARD, "cust-mode");
    const liveKey = (await createApiKey(t.db, { merchantId: m.merchantId, name: "live", mode: "live" })).key;
    expect((await readMethod(m, methodId)).status).toBe(200);
    expect((await readMethod({ ...m, key: liveKey }, methodId)).status).toBe(404);
  });
});

describe.each(PROVIDERS.filter((entry) => entry.provider === "provider-d" || entry.provider === "provider-f"))(
  "a saved card whose provider only sells: $provider",
  ({ provider, kind, template }) => {
    it("refuses to authorize only with it, at the flow field, and creates nothing; the same card still sells", async () => {
      const m = await invoiceMerchant(t.db);
      await connect(t.db, m.merchantId, provider, kind, { vaultKey: credentialsKey() });
      const customer = `cust-auth-${provider}`;
      const { methodId } = await saveCard(m, template, CARD, customer);
      const before = await t.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.merchantId, m.merchantId));
      const body = paymentBody(m, template, { customer, paymentMethod: methodId });
      body.data.attributes.flow = "authorize";
      const refused = await create(m, body);
      expect(refused.status, refused.text).toBe(422);
      expect(errorsOf(refused)).toEqual([["/data/attributes/flow", "capability_not_offered"]]);
      expect(refused.text).toContain("cannot authorize now and capture later");
      const after = await t.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.merchantId, m.merchantId));
      expect(after).toHaveLength(before.length);
      const sale = await create(m, paymentBody(m, template, { customer, paymentMethod: methodId }));
      expect(sale.status, sale.text).toBe(201);
      expect(sale.json.data.attributes.status).toBe("processed");
    });
  },
);

describe("the API reference's saved-card example", () => {
  it("names the merchant's newest chargeable test card of Provider B, and none once it is detached or of another merchant", async () => {
    const m = await invoiceMerchant(t.db);
    const other = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    expect(await newestChargeableCard(t.db, m.merchantId, "test", SAVED_CARD_EXAMPLE_PROVIDER)).toBeUndefined();
    const { methodId: first } = await saveCard(m, "b-payment", CARD, "cust-ref-1");
    const { methodId: second } = await saveCard(m, "b-payment", CARD, "cust-ref-2");
    expect(await newestChargeableCard(t.db, m.merchantId, "test", SAVED_CARD_EXAMPLE_PROVIDER)).toBe(second);
    expect(await newestChargeableCard(t.db, m.merchantId, "live", SAVED_CARD_EXAMPLE_PROVIDER)).toBeUndefined();
    expect(await newestChargeableCard(t.db, other.merchantId, "test", SAVED_CARD_EXAMPLE_PROVIDER)).toBeUndefined();
    const removed = await send(DELETE_METHOD, { id: second }, { method: "DELETE", path: `/api/commerce/payment-methods/${second}`, key: m.key });
    expect(removed.status).toBe(204);
    expect(await newestChargeableCard(t.db, m.merchantId, "test", SAVED_CARD_EXAMPLE_PROVIDER)).toBe(first);
    // The example as the reference shows it with that card is accepted as sent.
    const examples = (
      buildOpenApiDocument({ baseUrl: "http://127.0.0.1/", commerceAccount: m.account, paymentMethodId: first }) as {
        paths: Record<string, { post: { requestBody: { content: Record<string, { examples: Record<string, { value: Body }> }> } } }>;
      }
    ).paths["/api/commerce/payment-invoices"]!.post.requestBody.content["application/vnd.api+json"]!.examples;
    const charged = await create(m, examples["saved-card-charge"]!.value);
    expect(charged.status, charged.text).toBe(201);
    expect(charged.json.data.relationships.payment_method!.data!.id).toBe(first);
  });
});
