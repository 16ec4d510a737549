import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { GET as LIST_PAYMENTS, POST as CREATE_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { GET as PAYMENT_ATTEMPTS } from "@/app/api/commerce/payment-invoices/[id]/attempts/route";
import { GET as LIST_REFUNDS, POST as CREATE_REFUND } from "@/app/api/commerce/payment-invoices/[id]/refunds/route";
import { GET as LIST_PAYOUTS, POST as CREATE_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import { GET as GET_PAYOUT } from "@/app/api/commerce/payout-invoices/[id]/route";
import { GET as PAYOUT_ATTEMPTS } from "@/app/api/commerce/payout-invoices/[id]/attempts/route";
import { POST as CANCEL_PAYOUT } from "@/app/api/commerce/payout-invoices/[id]/cancel/route";
import { POST as PROCESS_PAYOUT } from "@/app/api/commerce/payout-invoices/[id]/process/route";
import { GET as GET_REFUND } from "@/app/api/commerce/refunds/[id]/route";
import { GET as LIST_CONNECTIONS, POST as CREATE_CONNECTION } from "@/app/api/connections/route";
import { DELETE as DELETE_CONNECTION, PATCH as EDIT_CONNECTION } from "@/app/api/connections/[id]/route";
import { PATCH as EDIT_ROUTING } from "@/app/api/routing/[id]/route";
import { PATCH as EDIT_ROUTING_SETTINGS } from "@/app/api/routing/settings/route";
import { rollApiKeyAction } from "@/lib/actions/api-keys";
import { createApiKey, listApiKeys } from "@/lib/api-keys/queries";
import { resetRateLimits } from "@/lib/api/rate-limit";
import type { RouteHandler } from "@/lib/api/run-logged";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { apiKeys, invoices } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { payWithCard } from "@/lib/processing/engine";
import { createRefund } from "@/lib/refunds/create-refund";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { createAttributes } from "./helpers/connection-fixtures";
import { send, type Answer } from "./helpers/send";
import { snapshotTenant } from "./helpers/tenant-world";

/**
 * API keys as merchants expect them (test and live, read-only, rolled), through the routes a client calls: a test
 * key creates and reads test invoices only and a live key live ones only; a read-only key only
 * reads; a rolled key works for its grace period and is refused after it; the last use is kept.
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"] });
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };

beforeEach(() => {
  fake.reset();
  resetRateLimits();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Resource = { id: string; attributes: Record<string, unknown> };
type Body = { data: { attributes: Record<string, unknown> } };

function body(m: TeamMerchant, template: "a-payment" | "a-payout", testMode: boolean): Body {
  const envelope = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() }) as Body;
  envelope.data.attributes.test_mode = testMode;
  if (template === "a-payout") {
    envelope.data.attributes.options = { auto_process: false };
    envelope.data.attributes.fields = { card_number: "4242424242424242" };
  }
  return envelope;
}

async function stored(m: TeamMerchant, template: "a-payment" | "a-payout", testMode: boolean): Promise<string> {
  const created = await createInvoice(t.db, m.merchant, template === "a-payment" ? "payment" : "payout", body(m, template, testMode));
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice.id;
}

let m: TeamMerchant;
let testKey: string;
let liveKey: string;
let readOnlyKey: string;
const ids = { testPayment: "", livePayment: "", testPayout: "", livePayout: "", testRefund: "", testConnection: "", routingOrder: "" };

beforeAll(async () => {
  m = await teamMerchant(t.db);
  testKey = m.key;
  liveKey = (await createApiKey(t.db, { merchantId: m.merchantId, name: "live", mode: "live" })).key;
  readOnlyKey = (await createApiKey(t.db, { merchantId: m.merchantId, name: "reader", mode: "test", scope: "read_only" })).key;
  const testConnection = await connect(t.db, m.merchantId, "provider-a", "h2h", { mode: "test" });
  await connect(t.db, m.merchantId, "provider-a", "h2h", { mode: "live" });
  ids.testConnection = testConnection.id;
  ids.routingOrder = `${testConnection.services[0]}:test`;
  ids.testPayment = await stored(m, "a-payment", true);
  ids.livePayment = await stored(m, "a-payment", false);
  ids.testPayout = await stored(m, "a-payout", true);
  ids.livePayout = await stored(m, "a-payout", false);
  const paid = await payWithCard(t.db, ids.testPayment, CARD);
  if (paid.kind === "refused") throw new Error("setup: not paid");
  const refund = await createRefund(t.db, {
    merchantId: m.merchantId,
    invoiceId: ids.testPayment,
    body: { data: { type: "refund", attributes: { reference_id: newReference(), amount: "1.00" } } },
    testOnly: false,
    createdBy: "setup",
  });
  if (refund.kind !== "created") throw new Error(`setup: refund ${JSON.stringify(refund)}`);
  ids.testRefund = refund.refund.id;
});

const PAYMENTS = "/api/commerce/payment-invoices";
const PAYOUTS = "/api/commerce/payout-invoices";
const refundBody = () => ({ data: { type: "refund", attributes: { reference_id: newReference(), amount: "1.00" } } });

describe("key modes", () => {
  it("a test key creates test invoices and is refused live ones (403 key_mode_mismatch, nothing stored); a live key the other way round", async () => {
    for (const [key, mode, other] of [
      [testKey, "test", "live"],
      [liveKey, "live", "test"],
    ] as const) {
      for (const [handler, path, template] of [
        [CREATE_PAYMENT, PAYMENTS, "a-payment"],
        [CREATE_PAYOUT, PAYOUTS, "a-payout"],
      ] as const) {
        const refusedBody = body(m, template, other === "test");
        const refused = await send(handler, {}, { method: "POST", path, key, body: refusedBody });
        expect([refused.status, refused.json.errors[0]?.code, refused.json.errors[0]?.source?.pointer]).toEqual([
          403,
          "key_mode_mismatch",
          "/data/attributes/test_mode",
        ]);
        expect(refused.json.errors[0]?.detail).toContain(`This is a ${mode} API key`);
        const reference = refusedBody.data.attributes.reference_id as string;
        expect(await t.db.select().from(invoices).where(eq(invoices.referenceId, reference))).toEqual([]);

        const created = await send<Resource>(handler, {}, { method: "POST", path, key, body: body(m, template, mode === "test") });
        expect([created.status, created.json.data.attributes.test_mode]).toEqual([201, mode === "test"]);
      }
    }
  });

  it("a reference already taken by the other mode's invoice is a 409 that does not name that invoice", async () => {
    const [live] = await t.db.select().from(invoices).where(eq(invoices.id, ids.livePayment));
    const sent = body(m, "a-payment", true);
    sent.data.attributes.reference_id = live!.referenceId;
    const answer = await send(CREATE_PAYMENT, {}, { method: "POST", path: PAYMENTS, key: testKey, body: sent });
    expect([answer.status, answer.json.errors[0]?.code]).toEqual([409, "reference_reused"]);
    expect(answer.text).not.toContain(ids.livePayment);
  });

  it("an invoice of the other mode is not found on every route that names one, and lists hold the key's mode only", async () => {
    type Probe = [string, RouteHandler<{ id: string }>, string, string, string?];
    const probes = (own: "test" | "live"): Probe[] => {
      const payment = own === "test" ? ids.testPayment : ids.livePayment;
      const payout = own === "test" ? ids.testPayout : ids.livePayout;
      return [
        ["GET payment", GET_PAYMENT, "GET", payment],
        ["GET payment attempts", PAYMENT_ATTEMPTS, "GET", payment],
        ["GET payment refunds", LIST_REFUNDS, "GET", payment],
        ["POST payment refund", CREATE_REFUND, "POST", payment, "refund"],
        ["GET payout", GET_PAYOUT, "GET", payout],
        ["GET payout attempts", PAYOUT_ATTEMPTS, "GET", payout],
        ["POST payout process", PROCESS_PAYOUT, "POST", payout],
        ["POST payout cancel", CANCEL_PAYOUT, "POST", payout],
      ];
    };
    const call = (handler: RouteHandler<{ id: string }>, method: string, id: string, key: string, withBody?: string) =>
      send(handler, { id }, { method, path: `/api/commerce/x/${id}`, key, body: withBody ? refundBody() : undefined });

    // The test key on live invoices, the live key on test ones: 404, and nothing changes.
    const before = await t.db.select().from(invoices).where(eq(invoices.merchantId, m.merchantId));
    const wrong: [Probe, string][] = [...probes("live").map((p): [Probe, string] => [p, testKey]), ...probes("test").map((p): [Probe, string] => [p, liveKey])];
    for (const [[name, handler, method, id, withBody], key] of wrong) {
      const answer: Answer = await call(handler, method, id, key, withBody);
      expect([name, answer.status, answer.json.errors?.[0]?.code]).toEqual([name, 404, "not_found"]);
    }
    expect(await t.db.select().from(invoices).where(eq(invoices.merchantId, m.merchantId))).toEqual(before);

    // Its own mode's reads answer.
    for (const [key, own] of [
      [testKey, "test"],
      [liveKey, "live"],
    ] as const) {
      for (const [name, handler, method, id] of probes(own).filter(([, , method]) => method === "GET")) {
        expect([name, (await call(handler, method, id, key)).status]).toEqual([name, 200]);
      }
    }
    const refundPath = `/api/commerce/refunds/${ids.testRefund}`;
    expect((await send(GET_REFUND, { id: ids.testRefund }, { path: refundPath, key: liveKey })).status).toBe(404);
    expect((await send(GET_REFUND, { id: ids.testRefund }, { path: refundPath, key: testKey })).status).toBe(200);

    for (const [handler, path, testId, liveId] of [
      [LIST_PAYMENTS, PAYMENTS, ids.testPayment, ids.livePayment],
      [LIST_PAYOUTS, PAYOUTS, ids.testPayout, ids.livePayout],
    ] as const) {
      const asTest = await send<Resource[]>(handler, {}, { path: `${path}?page[size]=100`, key: testKey });
      const asLive = await send<Resource[]>(handler, {}, { path: `${path}?page[size]=100`, key: liveKey });
      expect(asTest.json.data.map((r) => r.id)).toContain(testId);
      expect(asTest.json.data.map((r) => r.id)).not.toContain(liveId);
      expect(asTest.json.data.every((r) => r.attributes.test_mode === true)).toBe(true);
      expect(asLive.json.data.map((r) => r.id)).toContain(liveId);
      expect(asLive.json.data.map((r) => r.id)).not.toContain(testId);
      expect(asLive.json.data.every((r) => r.attributes.test_mode === false)).toBe(true);
    }
  });
});

describe("read-only keys", () => {
  it("read, and every write route answers 403 insufficient_scope with nothing changed", async () => {
    expect((await send(LIST_PAYMENTS, {}, { path: PAYMENTS, key: readOnlyKey })).status).toBe(200);
    expect((await send(GET_PAYMENT, { id: ids.testPayment }, { path: `${PAYMENTS}/${ids.testPayment}`, key: readOnlyKey })).status).toBe(200);
    expect((await send(LIST_CONNECTIONS, {}, { path: "/api/connections", key: readOnlyKey })).status).toBe(200);

    const writes: [string, RouteHandler<{ id: string }>, string, string, unknown?][] = [
      ["POST payment-invoices", CREATE_PAYMENT as RouteHandler<{ id: string }>, "POST", "", body(m, "a-payment", true)],
      ["POST payout-invoices", CREATE_PAYOUT as RouteHandler<{ id: string }>, "POST", "", body(m, "a-payout", true)],
      ["POST refunds", CREATE_REFUND, "POST", ids.testPayment, refundBody()],
      ["POST process", PROCESS_PAYOUT, "POST", ids.testPayout],
      ["POST cancel", CANCEL_PAYOUT, "POST", ids.testPayout],
      [
        "POST connections",
        CREATE_CONNECTION as RouteHandler<{ id: string }>,
        "POST",
        "",
        { data: { type: "connection", attributes: createAttributes("provider-b", "h2h") } },
      ],
      [
        "PATCH connection",
        EDIT_CONNECTION,
        "PATCH",
        ids.testConnection,
        { data: { type: "connection", id: ids.testConnection, attributes: { label: "renamed" } } },
      ],
      ["DELETE connection", DELETE_CONNECTION, "DELETE", ids.testConnection],
      [
        "PATCH routing order",
        EDIT_ROUTING,
        "PATCH",
        ids.routingOrder,
        { data: { type: "routing-order", id: ids.routingOrder, attributes: { connection_ids: [ids.testConnection] } } },
      ],
      [
        "PATCH routing settings",
        EDIT_ROUTING_SETTINGS as RouteHandler<{ id: string }>,
        "PATCH",
        "",
        { data: { type: "routing-settings", attributes: { window_hours: 2, min_sample: 3, exploration_percent: 1 } } },
      ],
    ];
    const { api_keys: _keysBefore, ...before } = await snapshotTenant(t.db, m.merchantId);
    for (const [name, handler, method, id, sent] of writes) {
      const answer = await send(handler, { id }, { method, path: `/api/x/${id}`, key: readOnlyKey, body: sent });
      expect([name, answer.status, answer.json.errors?.[0]?.code]).toEqual([name, 403, "insufficient_scope"]);
      expect(answer.json.errors[0]?.detail).toContain("read-only");
    }
    // The last-use time of the key may move; nothing else of the merchant does.
    const { api_keys: _keysAfter, ...after } = await snapshotTenant(t.db, m.merchantId);
    expect(after).toEqual(before);
  });
});

describe("rolling a key", () => {
  it("the new key has the same name, mode and scope; the old one works during the grace period and is refused after it", async () => {
    const { key: oldKey, summary } = await createApiKey(t.db, { merchantId: m.merchantId, name: "shop backend", mode: "live", scope: "read_only" });
    session.userId = m.ownerId;
    const rolled = await rollApiKeyAction({ id: summary.id, grace: "1h" });
    if (!rolled.ok) throw new Error(`roll refused: ${rolled.message}`);
    const newKey = rolled.data.key;
    expect(newKey).toMatch(/^pok_live_[A-Za-z0-9_-]{43}$/);
    const listed = await listApiKeys(t.db, m.merchantId);
    const old = listed.find((k) => k.id === summary.id)!;
    const replacement = listed.find((k) => k.id === rolled.data.id)!;
    expect(replacement).toMatchObject({ name: "shop backend", mode: "live", scope: "read_only", prefix: "pok_live_", expiresAt: null, revokedAt: null });
    expect(old.rolledTo).toBe(replacement.id);
    expect(Math.abs(old.expiresAt!.getTime() - (Date.now() + 3_600_000))).toBeLessThan(60_000);
    expect(JSON.stringify(listed)).not.toContain(newKey);

    const read = (key: string) => send(LIST_PAYMENTS, {}, { path: PAYMENTS, key });
    expect((await read(oldKey)).status).toBe(200);
    expect((await read(newKey)).status).toBe(200);
    // A rolled key is not rolled again (its replacement is).
    expect(await rollApiKeyAction({ id: summary.id, grace: "1h" })).toMatchObject({ ok: false, message: expect.stringContaining("cannot be rolled") });

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3_600_000 + 1_000 });
    const refused = await read(oldKey);
    expect([refused.status, refused.json.errors[0]?.code]).toEqual([401, "invalid_api_key"]);
    expect((await read(newKey)).status).toBe(200);
  });

  it("with no grace the old key is refused at once", async () => {
    const { key: oldKey, summary } = await createApiKey(t.db, { merchantId: m.merchantId, name: "leaked" });
    expect((await send(LIST_PAYMENTS, {}, { path: PAYMENTS, key: oldKey })).status).toBe(200);
    session.userId = m.ownerId;
    const rolled = await rollApiKeyAction({ id: summary.id, grace: "now" });
    if (!rolled.ok) throw new Error("roll refused");
    expect((await send(LIST_PAYMENTS, {}, { path: PAYMENTS, key: oldKey })).status).toBe(401);
    expect((await send(LIST_PAYMENTS, {}, { path: PAYMENTS, key: rolled.data.key })).status).toBe(200);
  });
});

describe("last used", () => {
  it("is recorded at a key's first call, not rewritten within a minute, and moved on after it", async () => {
    const { key, summary } = await createApiKey(t.db, { merchantId: m.merchantId, name: "usage" });
    const lastUsed = async () => (await t.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, summary.id)))[0]!.at;
    expect(await lastUsed()).toBeNull();
    expect((await send(LIST_PAYMENTS, {}, { path: PAYMENTS, key })).status).toBe(200);
    await vi.waitFor(async () => expect(await lastUsed()).toBeInstanceOf(Date));
    const first = (await lastUsed())!;

    vi.useFakeTimers({ toFake: ["Date"], now: first.getTime() + 30_000 });
    expect((await send(LIST_PAYMENTS, {}, { path: PAYMENTS, key })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await lastUsed())!.getTime()).toBe(first.getTime());

    vi.setSystemTime(first.getTime() + 61_000);
    expect((await send(LIST_PAYMENTS, {}, { path: PAYMENTS, key })).status).toBe(200);
    await vi.waitFor(async () => expect((await lastUsed())!.getTime()).toBe(first.getTime() + 61_000));
  });
});
