import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
/** The browser's cookie jar, as next/headers shows it to server actions and server components. */
const jar = vi.hoisted(() => new Map<string, { value: string; options?: Record<string, unknown> }>());
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)!.value } : undefined),
    set: (name: string, value: string, options?: Record<string, unknown>) => void jar.set(name, { value, options }),
  }),
}));

import { GET as LIST } from "@/app/api/dashboard/invoices/route";
import * as paymentRoute from "@/app/api/commerce/payment-invoices/route";
import { payOnHostedPage } from "./helpers/hosted-page";
import { testConnectionAction } from "@/lib/actions/test-connection";
import { setViewModeAction } from "@/lib/actions/view-mode";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/queries";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { countInvoicesByStatus, getHomeSummary, getSetupChecklist, STATUS_COUNT_CAP } from "@/lib/dashboard/home";
import { getRoutingOrdersInView } from "@/lib/dashboard/routing";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { merchants, users } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { newMerchant } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, newReference, remove, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { send } from "./helpers/send";

/**
 * The home page's setup checklist is ticked from the merchant's real data, and the
 * dashboard's Test/Live view (a cookie set by the shell's switch) decides which mode's
 * connections, invoices and routing orders the pages list.
 */
const t = setUpTestDb();
setUpFakeProvider({ replace: [], providerZ: true });

const CARD = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "737", holder: "Heidi Muster" };

beforeEach(() => {
  session.userId = undefined;
  jar.clear();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Resource = { id: string; attributes: Record<string, unknown> };

/** Created through the API with a key of the invoice's mode (a test key for test invoices, a live key for live ones). */
async function createPayment(m: TeamMerchant, testMode = true) {
  const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.options = {};
  body.data.attributes.test_mode = testMode;
  const key = testMode ? m.key : (await createApiKey(t.db, { merchantId: m.merchantId, name: "live", mode: "live" })).key;
  const answer = await send<Resource>(paymentRoute.POST, {}, { method: "POST", path: "/api/commerce/payment-invoices", key, body });
  expect(answer.status).toBe(201);
  return answer.json.data.id;
}

const listIds = async (path: string, cookie?: string) => {
  const headers = new Headers(cookie ? { cookie } : {});
  const response = await LIST(new Request(`http://test${path}`, { headers }), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { invoices: { id: string }[] } };
  return body.data.invoices.map((invoice) => invoice.id).sort();
};

describe("the setup checklist", () => {
  it("starts unticked and ticks each step from the merchant's data", async () => {
    const merchantId = await newMerchant(t.db);
    const [owner] = await t.db.select().from(users).where(eq(users.merchantId, merchantId));
    session.userId = owner!.id;
    const none = { connected: false, tested: false, apiKey: false, paidTestInvoice: false, webhook: false };
    expect(await getSetupChecklist(t.db, merchantId)).toEqual(none);

    const connection = await connect(t.db, merchantId, "provider-z", "h2h", { vaultKey: credentialsKey() });
    expect(await getSetupChecklist(t.db, merchantId)).toEqual({ ...none, connected: true });

    // Test connection as the owner presses it: the outcome is kept, and only a passing test ticks.
    expect(await testConnectionAction({ id: connection.id })).toMatchObject({ ok: true, data: { kind: "ok" } });
    expect(await getSetupChecklist(t.db, merchantId)).toEqual({ ...none, connected: true, tested: true });

    const { summary } = await createApiKey(t.db, { merchantId, name: "shop" });
    expect((await getSetupChecklist(t.db, merchantId)).apiKey).toBe(true);
    await revokeApiKey(t.db, merchantId, summary.id);
    expect((await getSetupChecklist(t.db, merchantId)).apiKey).toBe(false);
    const { key } = await createApiKey(t.db, { merchantId, name: "shop 2" });

    const [merchant] = await t.db.select().from(merchants).where(eq(merchants.id, merchantId));
    const m = { merchantId, key, account: merchant!.commerceAccount } as TeamMerchant;
    const id = await createPayment(m);
    expect((await getSetupChecklist(t.db, merchantId)).paidTestInvoice).toBe(false);
    expect(await payOnHostedPage(id, CARD)).toMatchObject({ ok: true, kind: "result", invoice: { outcome: { kind: "paid" } } });
    expect((await getSetupChecklist(t.db, merchantId)).paidTestInvoice).toBe(true);

    expect(
      (await createEndpoint(t.db, merchantId, { url: "http://127.0.0.1:9/hooks", description: "", enabled: true, allEvents: true, eventTypes: [] })).ok,
    ).toBe(true);
    expect(await getSetupChecklist(t.db, merchantId)).toEqual({ connected: true, tested: true, apiKey: true, paidTestInvoice: true, webhook: true });

    // Deleting the only connection takes its steps back: nothing is connected or tested any more.
    await remove(t.db, merchantId, connection.id);
    expect(await getSetupChecklist(t.db, merchantId)).toMatchObject({ connected: false, tested: false });

    // Another merchant's progress is its own.
    expect(await getSetupChecklist(t.db, await newMerchant(t.db))).toEqual(none);
  });
});

describe("the Test/Live view", () => {
  it("is set by the switch's action to test or live only, for a signed-in member", async () => {
    const m = await teamMerchant(t.db);
    expect(await getViewMode()).toBe("test");

    expect(await setViewModeAction({ mode: "live" })).toMatchObject({ ok: false, message: expect.stringContaining("Sign in") });
    expect(jar.size).toBe(0);

    session.userId = m.supportId;
    expect(await setViewModeAction({ mode: "live" })).toEqual({ ok: true, data: "live" });
    expect(jar.get("view_mode")).toMatchObject({ value: "live", options: { httpOnly: true, path: "/", sameSite: "lax" } });
    expect(await getViewMode()).toBe("live");

    expect(await setViewModeAction({ mode: "staging" })).toMatchObject({ ok: false, fieldErrors: { mode: expect.any(String) } });
    expect(await setViewModeAction({})).toMatchObject({ ok: false, fieldErrors: { mode: expect.any(String) } });
    expect(await getViewMode()).toBe("live");

    // A tampered cookie is read as the default view.
    jar.set("view_mode", { value: "everything" });
    expect(await getViewMode()).toBe("test");
  });

  it("lists only that mode's invoices, counts and routing orders, whatever the page's own mode parameter says", async () => {
    const m = await teamMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-z", "h2h", { vaultKey: credentialsKey() });
    await connect(t.db, m.merchantId, "provider-z", "h2h", { mode: "live", vaultKey: credentialsKey() });
    const testIds = [await createPayment(m), await createPayment(m)].sort();
    const liveId = await createPayment(m, false);
    await payOnHostedPage(testIds[0]!, CARD);
    session.userId = m.supportId;

    expect(await listIds("/api/dashboard/invoices")).toEqual(testIds);
    expect(await listIds("/api/dashboard/invoices", "view_mode=test")).toEqual(testIds);
    expect(await listIds("/api/dashboard/invoices?mode=live", "other=1; view_mode=test")).toEqual(testIds);
    expect(await listIds("/api/dashboard/invoices", "view_mode=live")).toEqual([liveId]);
    expect(await listIds("/api/dashboard/invoices?status=processed", "view_mode=live")).toEqual([]);

    const nonZero = async (mode: "test" | "live") => (await countInvoicesByStatus(t.db, m.merchantId, mode)).filter((c) => c.count > 0);
    expect(await nonZero("test")).toEqual([
      { status: "created", count: 1, atLeast: false },
      { status: "processed", count: 1, atLeast: false },
    ]);
    expect(await nonZero("live")).toEqual([{ status: "created", count: 1, atLeast: false }]);

    const home = await getHomeSummary(t.db, m.merchantId, "live");
    expect(home.recent.map((invoice) => invoice.id)).toEqual([liveId]);
    expect(home.recent[0]).toMatchObject({ testMode: false });
    expect((await getHomeSummary(t.db, m.merchantId, "test")).recent.map((invoice) => invoice.id).sort()).toEqual(testIds);

    // Past STATUS_COUNT_CAP a count reads "99+": copies of the created test invoice take it there.
    await t.db.execute(sql`
      insert into invoices
      select (jsonb_populate_record(null::invoices, to_jsonb(i) || jsonb_build_object('id', i.id || '_' || g, 'reference_id', i.reference_id || '-' || g))).*
      from invoices i, generate_series(1, ${STATUS_COUNT_CAP}) g where i.id = ${testIds[1]}`);
    expect(await nonZero("test")).toEqual([
      { status: "created", count: STATUS_COUNT_CAP, atLeast: true },
      { status: "processed", count: 1, atLeast: false },
    ]);
    expect(await nonZero("live")).toEqual([{ status: "created", count: 1, atLeast: false }]);

    const testOrders = await getRoutingOrdersInView(t.db, m.merchantId, "test");
    const liveOrders = await getRoutingOrdersInView(t.db, m.merchantId, "live");
    expect(testOrders.length).toBeGreaterThan(0);
    expect(liveOrders.length).toBe(testOrders.length);
    expect(testOrders.every((order) => order.mode === "test")).toBe(true);
    expect(liveOrders.every((order) => order.mode === "live")).toBe(true);
  });
});
