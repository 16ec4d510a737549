import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as POST_CONNECTION } from "@/app/api/connections/route";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PROVIDERS } from "@/app/api/providers/route";
import { seedDemo } from "@/lib/admin/seed-demo";
import { resetRateLimits } from "@/lib/api/rate-limit";
import type { RouteHandler } from "@/lib/api/with-api-key";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { logger } from "@/lib/logger";
import { describeRegistry } from "@/lib/providers";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { registerProviderZ } from "@/tests/fixtures/provider-z/register";
import { setUpTestDb, unique } from "./helpers/db";
import { invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/**
 * A seventh provider folder (tests/fixtures/provider-z), registered with its one registry
 * line, goes through the HTTP routes and the database like the six real ones: described by
 * GET /api/providers, connected through the management API, routed to by the invoice API and
 * seeded by `npm run admin -- seed-demo`. No other file names it.
 */
const t = setUpTestDb();

let unregister: () => void;
beforeAll(() => {
  unregister = registerProviderZ();
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
    const seeded = (await seedDemo(t.db, { email: `${account}@example.com`, commerceAccount: account })) as { connections: { provider: string; kind: string }[] };
    expect(seeded.connections.filter((connection) => connection.provider === "provider-z")).toEqual([
      expect.objectContaining({ provider: "provider-z", kind: "h2h" }),
    ]);
  });
});
