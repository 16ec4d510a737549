import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as POST_CONNECTION } from "@/app/api/connections/route";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PROVIDERS } from "@/app/api/providers/route";
import { seedDemo } from "@/lib/admin/seed-demo";
import { resetRateLimits } from "@/lib/api/rate-limit";
import type { RouteHandler } from "@/lib/api/run-logged";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { logger } from "@/lib/logger";
import { providerCallbacks } from "@/lib/db/schema";
import { listAttempts } from "@/lib/processing/attempts";
import { payWithCard } from "@/lib/processing/engine";
import { readInvoice } from "@/lib/invoices/store";
import { describeRegistry } from "@/lib/providers";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { registerProviderZFolder } from "@/tests/fixtures/provider-z/register-server";
import { setUpTestDb, unique } from "./helpers/db";
import { invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { runAllJobs } from "./helpers/jobs";
import { serveSandboxes } from "./helpers/sandbox-http";

/**
 * A seventh provider folder (tests/fixtures/provider-z: spec and server half), registered as its
 * line in lib/providers/list.ts would register it, goes through the HTTP routes and the database
 * like the six real ones: described by GET /api/providers, connected through the management API,
 * routed to by the invoice API, seeded by `npm run admin -- seed-demo`, paid through its own
 * sandbox (reached over HTTP at APP_URL) and settled by its own signed callback through the
 * callback route. No other file names it.
 */
const t = setUpTestDb();
serveSandboxes(() => t.db, { asAppUrl: true });

let unregister: () => void;
beforeAll(() => {
  unregister = registerProviderZFolder();
});
afterAll(() => unregister());
beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Answer = { status: number; json: { data: Record<string, unknown> & { id: string; attributes: Record<string, unknown> } } };

async function send(handler: RouteHandler<Record<string, string>>, path: string, key?: string, body?: unknown): Promise<Answer> {
  const headers = new Headers(body === undefined ? {} : { "content-type": "application/json" });
  if (key) headers.set("authorization", `Bearer ${key}`);
  const init: RequestInit = body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) };
  const response = await handler(new Request(`http://test${path}`, init), { params: Promise.resolve({}) });
  return { status: response.status, json: JSON.parse(await response.text()) };
}

describe("Provider Z, a folder registered at run time", () => {
  let merchant: InvoiceMerchant;
  beforeAll(async () => {
    merchant = await invoiceMerchant(t.db);
  });

  it("is described by GET /api/providers exactly as the registry describes it", async () => {
    const answer = await send(GET_PROVIDERS, "/api/providers");
    expect(answer.status).toBe(200);
    const resources = answer.json.data as unknown as { type: string; id: string; attributes: Record<string, unknown> }[];
    const providers = resources.map(({ id, attributes }) => ({ slug: id, ...attributes })) as { slug: string; services: { code: string }[] }[];
    expect(providers.at(-1)).toMatchObject({ slug: "provider-z", name: "Provider Z", services: [{ code: "payment_card_chf_hpp" }] });
    expect(providers).toStrictEqual(describeRegistry().providers);
  });

  it("is connected through the management API, its secret masked, and an invoice of its example is routed to it", async () => {
    const credentials = sampleCredentials("provider-z", "h2h", "test");
    const attributes = { provider: "provider-z", kind: "h2h", label: "Z over HTTP", mode: "test", credentials, constants: { EMAIL: "billing@example.com" } };
    const created = await send(POST_CONNECTION, "/api/connections", merchant.key, { data: { type: "connection", attributes } });
    expect(created.status).toBe(201);
    expect(created.json.data.attributes).toMatchObject({
      provider: "provider-z",
      services: ["payment_card_chf_hpp"],
      credentials: { account_id: "Z-1001", currency: "CHF", api_secret: expect.stringMatching(/^••••/) },
    });
    expect(JSON.stringify(created.json)).not.toContain(credentials.api_secret as string);

    const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: merchant.account, referenceId: newReference() });
    const invoice = await send(POST_PAYMENT, "/api/commerce/payment-invoices", merchant.key, body);
    expect(invoice.status).toBe(201);
    expect(invoice.json.data.attributes).toMatchObject({ service: "payment_card_chf_hpp", currency: "CHF", amount: 42.5 });
    expect(invoice.json.data.relationships).toMatchObject({ connection: { data: { type: "connection", id: created.json.data.id } } });
  });

  it("gets a demo connection from seed-demo like every other provider and kind", async () => {
    // Its own merchant: the PostgreSQL pass shares one database between files and runs.
    const account = unique("demo-z");
    const seeded = (await seedDemo(t.db, { email: `${account}@example.com`, commerceAccount: account })) as {
      connections: { provider: string; kind: string }[];
    };
    expect(seeded.connections.filter((connection) => connection.provider === "provider-z")).toEqual([
      expect.objectContaining({ provider: "provider-z", kind: "h2h" }),
    ]);
  });
});

describe("Provider Z's server half, through the entry points of the real providers", () => {
  const card = (number: string) => ({ number, expiryMonth: 12, expiryYear: 2030, holder: "Heidi Muster", cvc: "123" });

  /** A Z connection through the management API and an invoice of its example through the invoice API. */
  async function zInvoice(): Promise<{ connectionId: string; invoiceId: string }> {
    const merchant = await invoiceMerchant(t.db);
    const credentials = sampleCredentials("provider-z", "h2h", "test");
    const attributes = { provider: "provider-z", kind: "h2h", label: unique("Z"), mode: "test", credentials, constants: { EMAIL: "billing@example.com" } };
    const created = await send(POST_CONNECTION, "/api/connections", merchant.key, { data: { type: "connection", attributes } });
    expect(created.status).toBe(201);
    const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: merchant.account, referenceId: newReference() });
    const invoice = await send(POST_PAYMENT, "/api/commerce/payment-invoices", merchant.key, body);
    expect(invoice.status).toBe(201);
    // Z takes no payment without its card: the invoice waits for the hosted page.
    expect(invoice.json.data.attributes).toMatchObject({ status: "created" });
    return { connectionId: created.json.data.id, invoiceId: invoice.json.data.id };
  }

  const callbacksOf = (invoiceId: string) => t.db.select().from(providerCallbacks).where(eq(providerCallbacks.invoiceId, invoiceId));

  it("is paid on the hosted page's entry point through its sandbox, and its signed callback settles the invoice", async () => {
    const { connectionId, invoiceId } = await zInvoice();
    const paid = await payWithCard(t.db, invoiceId, card("4242424242424242"));
    // Z's API is asynchronous: the sandbox answers "processing", the callback brings the result.
    expect(paid).toMatchObject({ kind: "finished", invoice: { status: "process_pending" } });
    const [attempt] = await listAttempts(t.db, invoiceId);
    expect(attempt).toMatchObject({ connectionId, status: "pending", providerReference: expect.stringMatching(/^Z-/) });
    const log = JSON.stringify(attempt!.exchanges);
    expect(log).toContain("/sandbox/provider-z/v1/payments");
    expect(log).not.toContain("4242424242424242");

    await runAllJobs(t.db, { name: "sandbox-callback" });
    expect(await readInvoice(t.db, invoiceId)).toMatchObject({ status: "processed", resolution: "ok", processedAmountMinor: 4250n });
    const stored = await callbacksOf(invoiceId);
    expect(stored).toEqual([
      expect.objectContaining({
        provider: "provider-z",
        connectionId,
        attemptId: attempt!.id,
        outcome: "applied",
        reported: expect.objectContaining({ status: "succeeded", providerReference: attempt!.providerReference }),
      }),
    ]);
    expect(Object.keys(stored[0]!.headers)).toEqual(expect.arrayContaining(["x-z-notification", "x-z-signature"]));
    expect((await listAttempts(t.db, invoiceId))[0]).toMatchObject({ status: "succeeded" });
  });

  it("a declined card: its callback ends the invoice with the decline", async () => {
    const { invoiceId } = await zInvoice();
    expect(await payWithCard(t.db, invoiceId, card("4000000000000002"))).toMatchObject({ invoice: { status: "process_pending" } });
    await runAllJobs(t.db, { name: "sandbox-callback" });
    expect(await readInvoice(t.db, invoiceId)).toMatchObject({ status: "process_failed", resolution: "issuer_decline" });
    expect(await callbacksOf(invoiceId)).toEqual([
      expect.objectContaining({ outcome: "applied", reported: expect.objectContaining({ status: "declined", resolution: "issuer_decline" }) }),
    ]);
  });
});
