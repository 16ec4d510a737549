import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The hosted page's action shares lib/actions' runner, which can read a session: nobody is signed in here.
vi.mock("@/lib/auth", () => ({ auth: async () => null }));
import * as connectionRoute from "@/app/api/connections/[id]/route";
import * as paymentRoute from "@/app/api/commerce/payment-invoices/[id]/route";
import { payInvoiceAction } from "@/lib/actions/pay-invoice";
import { RATE_LIMIT_BURST, resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { invoices } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { PAY_TRIES_PER_INVOICE } from "@/lib/pay/pay-limit";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/**
 * Issue 13, "Tenants and roles": the limits a caller meets. The API's per-key limit (a burst of
 * RATE_LIMIT_BURST, then 429 with Retry-After, other keys untouched) and the hosted page's limit on
 * Pay per invoice. The sign-in limit lives in next-auth's authorize callback, which runs only
 * inside Next: e2e/tenants-sign-in-limit.api.spec.ts tries it over HTTP.
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"] });

beforeEach(() => {
  resetRateLimits();
  fake.reset();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

function get(handler: Handler, id: string, key: string) {
  return handler(new Request(`http://test/probe/${id}`, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ id }) });
}

describe("the API's limit per key", () => {
  it("serves a burst, then answers 429 with Retry-After and a JSON:API error, counting every route of the key, and leaves other keys alone", async () => {
    const m = await invoiceMerchant(t.db);
    const other = await invoiceMerchant(t.db);
    // The clock stands still, so no token comes back while the burst is sent: what is counted is requests, not speed.
    vi.useFakeTimers({ toFake: ["Date"] });
    const statuses = new Map<number, number>();
    for (let i = 0; i < RATE_LIMIT_BURST; i += 1) {
      // Two routes, one bucket: the limit is the key's, whichever route it calls.
      const handler = (i % 2 ? connectionRoute.GET : paymentRoute.GET) as Handler;
      const status = (await get(handler, i % 2 ? "conn_unknown" : "cpi_unknown", m.key)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 404: RATE_LIMIT_BURST });

    const limited = await get(connectionRoute.GET as Handler, "conn_unknown", m.key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.headers.get("x-request-id")).toBeTruthy();
    const body = (await limited.json()) as { errors: { status: string; code: string; detail: string }[] };
    expect(body.errors).toEqual([expect.objectContaining({ status: "429", code: "rate_limited", detail: "Slow down; retry after 1 second(s)." })]);

    // Another merchant's key has its own bucket.
    expect((await get(connectionRoute.GET as Handler, "conn_unknown", other.key)).status).toBe(404);

    // A second later the key has earned 100 tokens back (RATE_LIMIT_PER_SECOND), so it is served again.
    vi.setSystemTime(Date.now() + 1_000);
    expect((await get(connectionRoute.GET as Handler, "conn_unknown", m.key)).status).toBe(404);
  });
});

describe("the hosted page's limit on Pay, per invoice", () => {
  const CARD = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "737", holder: "Heidi Muster" };

  async function hostedInvoice(m: InvoiceMerchant): Promise<string> {
    const body = templateEnvelope(findTemplate("a-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = {};
    body.data.attributes.test_mode = true;
    const created = await createInvoice(t.db, m.merchant, "payment", body);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    return created.invoice.id;
  }

  const statusOf = async (id: string) => (await t.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, id)))[0]?.status;

  it(`takes ${PAY_TRIES_PER_INVOICE} submissions of the form, then refuses with a clear message and reaches no provider; other invoices pay`, async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-a", "h2h");
    const id = await hostedInvoice(m);

    // A scripted client sends a form the page would not: each is counted and answered with the field's error.
    for (let i = 0; i < PAY_TRIES_PER_INVOICE; i += 1) {
      const answer = await payInvoiceAction(id, { ...CARD, number: `4242 424${i}` });
      expect(answer).toMatchObject({ ok: false, fieldErrors: { number: expect.stringMatching(/card number/) } });
    }
    // The next one, even with a good card, is refused before the card is read.
    const refused = await payInvoiceAction(id, CARD);
    expect(refused).toEqual({
      ok: false,
      fieldErrors: {},
      message: "Too many payment tries for this invoice. No payment was taken; wait 15 minutes and try again.",
    });
    expect(fake.calls).toEqual([]);
    expect(await statusOf(id)).toBe("created");

    // The limit is the invoice's: another invoice of the same merchant is paid at once.
    const second = await hostedInvoice(m);
    const paid = await payInvoiceAction(second, CARD);
    expect(paid).toMatchObject({ ok: true, data: { kind: "result", invoice: { id: second, outcome: { kind: "paid" } } } });
    expect(fake.calls).toHaveLength(1);
  });

  it("counts declined payments too: a card tester gets no more than the limit per invoice", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-a", "h2h");
    const id = await hostedInvoice(m);
    // Hard declines leave the invoice payable until its attempts limit (5); the tries before it are form errors.
    fake.script.set(connection.id, Array.from({ length: 5 }, () => ({ kind: "declined" as const, resolution: "issuer_decline" as const, message: "Do not honour" })));
    for (let i = 0; i < PAY_TRIES_PER_INVOICE - 4; i += 1) {
      expect(await payInvoiceAction(id, { ...CARD, expiry: "13/30" })).toMatchObject({ ok: false, fieldErrors: { expiry: expect.any(String) } });
    }
    for (let i = 0; i < 4; i += 1) {
      expect(await payInvoiceAction(id, CARD)).toMatchObject({ ok: true, data: { kind: "result", invoice: { canPay: true } } });
    }
    expect(fake.calls).toHaveLength(4);
    expect(await payInvoiceAction(id, CARD)).toMatchObject({ ok: false, message: expect.stringContaining("Too many payment tries for this invoice") });
    expect(fake.calls).toHaveLength(4);
    expect(await statusOf(id)).toBe("process_failed");
  });
});
