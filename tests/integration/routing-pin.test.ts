import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { POST as POST_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import { updateMerchantSettingsAction } from "@/lib/actions/settings";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { users } from "@/lib/db/schema";
import { invoiceResourceSchema, type InvoiceResource } from "@/lib/invoices/contract";
import { getDashboardInvoice, listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import { readDashboardListQuery } from "@/lib/invoices/read/filters";
import { PAYMENT_EXAMPLES, payoutExample } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { getMerchantSettings, updateMerchantSettings } from "@/lib/merchants/settings";
import { addTeamMember } from "@/lib/merchants/team";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { setUpTestDb, unique } from "./helpers/db";
import { bodyFor, connect, disable, invoiceMerchant, newReference, remove, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { errorsOf, send } from "./helpers/send";

/** A test invoice may pin its connection; live ones only when the merchant allows it. */
const t = setUpTestDb();
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];
const PIN = "/data/relationships/connection/data/id";

let loggedErrors: unknown[] = [];
beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
  loggedErrors = [];
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "error").mockImplementation((...args: unknown[]) => void loggedErrors.push(args));
});
afterEach(() => {
  vi.restoreAllMocks();
  expect(loggedErrors).toEqual([]);
});

type Body = ReturnType<typeof bodyFor>;

function pinned(body: Body, id: string | null): Body {
  return { data: { ...body.data, relationships: { connection: { data: id === null ? null : { type: "connection", id } } } } };
}

const eurBody = (m: InvoiceMerchant, overrides: Record<string, unknown> = {}) => bodyFor(EUR, m.account, { reference_id: newReference(), ...overrides });
const post = (m: InvoiceMerchant, body: unknown) =>
  send<InvoiceResource>(POST_PAYMENT, {}, { method: "POST", key: m.key, path: "/api/commerce/payment-invoices", body });

async function created(m: InvoiceMerchant, body: unknown): Promise<InvoiceResource> {
  const answer = await post(m, body);
  if (answer.status !== 201) throw new Error(`expected 201, got ${answer.status} ${answer.text}`);
  expect(invoiceResourceSchema.safeParse(answer.json.data).success).toBe(true);
  return answer.json.data;
}

/** A pin bypasses the rules: no rule, no branch, no order of its own; the sentence says it was pinned. */
const PINNED = {
  reason: "pinned",
  rule: null,
  branch: null,
  order: [],
  decided_at: null,
  success_rate: null,
  explanation: expect.stringContaining("pinned invoices do not cascade"),
};

describe("pinning an invoice to a connection (data.relationships.connection)", () => {
  let m: InvoiceMerchant;
  let b: string;
  let f: string;
  beforeAll(async () => {
    m = await invoiceMerchant(t.db);
    b = (await connect(t.db, m.merchantId, "provider-b", "h2h")).id;
    f = (await connect(t.db, m.merchantId, "provider-f", "h2h")).id;
    const saved = await saveRoutingOrder(
      t.db,
      { merchantId: m.merchantId, actor: { label: "test" } },
      { service: "payment_card_eur_hpp", mode: "test", connectionIds: [b, f] },
    );
    if (!saved.ok) throw new Error("setup: routing order");
  });

  it("sends an unpinned invoice to the first of the routing order and says so", async () => {
    const invoice = await created(m, eurBody(m));
    expect(invoice.relationships.connection.data?.id).toBe(b);
    const byOrder = {
      reason: "routing_order",
      rule: null,
      branch: null,
      order: [b, f],
      decided_at: "creation",
      success_rate: null,
      explanation: expect.stringContaining("No rule applied, so the default rule (the routing order) sent it to"),
    };
    expect(invoice.attributes.routing).toEqual(byOrder);
    expect((await created(m, pinned(eurBody(m), null))).attributes.routing).toEqual(byOrder);
  });

  it("sends a pinned test invoice to the pinned connection, whatever the order, and says pinned", async () => {
    const invoice = await created(m, pinned(eurBody(m), f));
    expect(invoice.relationships.connection.data).toEqual({ type: "connection", id: f });
    expect(invoice.attributes.routing).toEqual(PINNED);
  });

  it("works for payouts too", async () => {
    const a = await connect(t.db, m.merchantId, "provider-a", "provider_account");
    const answer = await send<InvoiceResource>(
      POST_PAYOUT,
      {},
      {
        method: "POST",
        key: m.key,
        path: "/api/commerce/payout-invoices",
        body: pinned(bodyFor(payoutExample(), m.account, { reference_id: newReference() }), a.id),
      },
    );
    expect([answer.status, answer.json.data.attributes.routing]).toEqual([201, PINNED]);
  });

  it.each([
    ["another merchant's", "foreign", "connection_not_found"],
    ["a disabled", "disabled", "connection_disabled"],
    ["a deleted", "deleted", "connection_not_found"],
    ["a live-mode", "live", "mode_mismatch"],
    ["an AMD-only", "amd", "service_not_offered"],
    ["a made-up", "made-up", "connection_not_found"],
  ])("refuses %s connection with 422 at the pin's id", async (_what, which, code) => {
    const stranger = await invoiceMerchant(t.db);
    const ids: Record<string, () => Promise<string>> = {
      foreign: async () => (await connect(t.db, stranger.merchantId, "provider-b", "h2h")).id,
      disabled: async () => {
        const id = (await connect(t.db, m.merchantId, "provider-e", "h2h")).id;
        await disable(t.db, m.merchantId, id);
        return id;
      },
      deleted: async () => {
        const id = (await connect(t.db, m.merchantId, "provider-e", "h2h")).id;
        await remove(t.db, m.merchantId, id);
        return id;
      },
      live: async () => (await connect(t.db, m.merchantId, "provider-f", "h2h", { mode: "live" })).id,
      amd: async () => (await connect(t.db, m.merchantId, "provider-c", "h2h")).id,
      "made-up": async () => "conn_doesnotexist",
    };
    const answer = await post(m, pinned(eurBody(m), await ids[which]!()));
    expect([answer.status, errorsOf(answer)]).toEqual([422, [[PIN, code]]]);
    expect(answer.json.errors[0]?.detail).toBeTruthy();
  });

  it("replays a pinned invoice with the same body, even once its connection is disabled, and refuses another pin for the reference", async () => {
    const own = await invoiceMerchant(t.db);
    const first = (await connect(t.db, own.merchantId, "provider-b", "h2h")).id;
    const second = (await connect(t.db, own.merchantId, "provider-f", "h2h")).id;
    const body = pinned(eurBody(own), second);
    const invoice = await created(own, body);
    expect((await post(own, pinned({ data: { ...body.data } } as Body, first))).status).toBe(409);
    await disable(t.db, own.merchantId, second);
    const replay = await post(own, body);
    expect([replay.status, replay.json.data.id, replay.json.data.attributes.routing]).toEqual([200, invoice.id, PINNED]);
  });
});

describe("pinning a live invoice", () => {
  it("is refused unless the merchant allows it; then it is pinned like a test invoice", async () => {
    const m = await invoiceMerchant(t.db, { mode: "live" });
    const older = (await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live" })).id;
    const newer = (await connect(t.db, m.merchantId, "provider-f", "h2h", { mode: "live" })).id;
    const live = () => pinned(eurBody(m, { test_mode: false }), newer);
    expect(await getMerchantSettings(t.db, m.merchantId)).toEqual({ allowLivePins: false });
    const refused = await post(m, live());
    expect([refused.status, errorsOf(refused)]).toEqual([422, [["/data/relationships/connection", "live_pin_not_allowed"]]]);
    expect(refused.json.errors[0]?.detail).toContain("Allow pinning live invoices");
    expect((await created(m, eurBody(m, { test_mode: undefined }))).relationships.connection.data?.id).toBe(older);

    await updateMerchantSettings(t.db, m.merchantId, { allowLivePins: true });
    const invoice = await created(m, live());
    expect([invoice.relationships.connection.data?.id, invoice.attributes.routing, invoice.attributes.test_mode]).toEqual([newer, PINNED, false]);
    const testConnection = (await connect(t.db, m.merchantId, "provider-b", "h2h")).id;
    expect(errorsOf(await post(m, pinned(eurBody(m, { test_mode: false }), testConnection)))).toEqual([[PIN, "mode_mismatch"]]);
  });

  it("is allowed by an owner on the Settings page, not by a support member", async () => {
    const m = await invoiceMerchant(t.db);
    const [owner] = await t.db.select().from(users).where(eq(users.merchantId, m.merchantId));
    const support = await addTeamMember(t.db, m.merchantId, {
      name: "Sam",
      email: `${unique("sam")}@example.com`,
      role: "support",
      password: "support-pass-99",
    });
    if (!support.ok) throw new Error("setup: support member");
    session.userId = support.value.id;
    expect(await updateMerchantSettingsAction({ allowLivePins: true })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not change the business's settings.",
    });
    session.userId = owner!.id;
    expect(await updateMerchantSettingsAction({ allowLivePins: "yes" })).toMatchObject({ ok: false, fieldErrors: { allowLivePins: "Choose on or off" } });
    expect(await updateMerchantSettingsAction({ allowLivePins: true })).toEqual({ ok: true, data: { allowLivePins: true } });
    expect(await getMerchantSettings(t.db, m.merchantId)).toEqual({ allowLivePins: true });
  });
});

describe("the dashboard says why", () => {
  it("gives the list and the invoice page the routing reason, and shows the pin in the request as sent", async () => {
    const m = await invoiceMerchant(t.db);
    const b = (await connect(t.db, m.merchantId, "provider-b", "h2h")).id;
    const f = (await connect(t.db, m.merchantId, "provider-f", "h2h")).id;
    const routed = await created(m, eurBody(m));
    const pin = await created(m, pinned(eurBody(m), f));
    const page = await listDashboardInvoices(t.db, m.merchantId, readDashboardListQuery(new URLSearchParams()).filter);
    const reasons = Object.fromEntries(page.invoices.map((invoice) => [invoice.id, [invoice.connection?.id, invoice.routingReason]]));
    expect(reasons).toEqual({ [routed.id]: [b, "routing_order"], [pin.id]: [f, "pinned"] });
    const detail = await getDashboardInvoice(t.db, m.merchantId, pin.id);
    expect(detail?.routingReason).toBe("pinned");
    expect(detail?.request).toMatchObject({ data: { relationships: { connection: { data: { type: "connection", id: f } } } } });
    expect((await getDashboardInvoice(t.db, m.merchantId, routed.id))?.request).not.toHaveProperty("data.relationships");
  });
});
