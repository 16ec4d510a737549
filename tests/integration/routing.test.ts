import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { GET as GET_ORDERS } from "@/app/api/routing/route";
import { GET as GET_ORDER, PATCH } from "@/app/api/routing/[id]/route";
import { saveRoutingOrderAction } from "@/lib/actions/routing";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { listAuditLog } from "@/lib/audit/read";
import { findRoute } from "@/lib/invoices/create/routing";
import { logger } from "@/lib/logger";
import { publicBaseUrl } from "@/lib/config";
import { listRouteCandidates } from "@/lib/routing/candidates";
import { getRoutingOrders, saveRoutingOrder, type RoutingOrder } from "@/lib/routing/orders";
import type { RoutingOrderAttributes } from "@/lib/api/routing-resource";
import { setUpTestDb } from "./helpers/db";
import { connect, disable, invoiceMerchant, remove, teamMerchant, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { errorsOf, send } from "./helpers/send";

/** The routing order, its page's action and its management API. */
const t = setUpTestDb();
const TEST_EUR = { service: "payment_card_eur_hpp", mode: "test" } as const;
const OWNER = { label: "Olga Owner <olga@example.com>" };

beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const scopeOf = (m: InvoiceMerchant) => ({ merchantId: m.merchantId, actor: OWNER });
const save = (m: InvoiceMerchant, connectionIds: string[], request: { service: string; mode: "test" | "live" } = TEST_EUR) =>
  saveRoutingOrder(t.db, scopeOf(m), { ...request, connectionIds });
const candidates = async (m: InvoiceMerchant, request: { service: string; mode: "test" | "live" } = TEST_EUR) =>
  (await listRouteCandidates(t.db, m.merchantId, request)).map((c) => c.connectionId);
const orderOf = (orders: RoutingOrder[], id: string) => orders.find((order) => order.id === id);

/** B, C (EUR account), E and F all offer payment_card_eur_hpp, as in the issue. */
async function eurMerchant() {
  const m = await invoiceMerchant(t.db);
  const b = await connect(t.db, m.merchantId, "provider-b", "h2h");
  const c = await connect(t.db, m.merchantId, "provider-c", "provider_account");
  const e = await connect(t.db, m.merchantId, "provider-e", "h2h");
  const f = await connect(t.db, m.merchantId, "provider-f", "h2h");
  return { m, b: b.id, c: c.id, e: e.id, f: f.id };
}

describe("routing order (lib/routing)", () => {
  it("is oldest first until saved; then the saved order decides the first connection and the cascade order", async () => {
    const { m, b, c, e, f } = await eurMerchant();
    expect(await candidates(m)).toEqual([b, c, e, f]);
    expect((await save(m, [f, c, e, b])).ok).toBe(true);
    expect(await candidates(m)).toEqual([f, c, e, b]);
    expect(await findRoute(t.db, m.merchantId, TEST_EUR)).toMatchObject({ connectionId: f, reason: "routing_order", position: 1 });
    const positions = (await listRouteCandidates(t.db, m.merchantId, TEST_EUR)).map((candidate) => candidate.position);
    expect(positions).toEqual([1, 2, 3, 4]);
  });

  it("forgets the cached route at once when an order is saved", async () => {
    const { m, b, f } = await eurMerchant();
    expect((await findRoute(t.db, m.merchantId, TEST_EUR))?.connectionId).toBe(b);
    await save(m, [f]);
    expect((await findRoute(t.db, m.merchantId, TEST_EUR))?.connectionId).toBe(f);
  });

  it("puts connections the saved order leaves out after it, oldest first; a new connection is routable at once", async () => {
    const { m, b, c, e, f } = await eurMerchant();
    await save(m, [e]);
    expect(await candidates(m)).toEqual([e, b, c, f]);
    const newer = await connect(t.db, m.merchantId, "provider-b", "h2h");
    expect(await candidates(m)).toEqual([e, b, c, f, newer.id]);
    const order = orderOf(await getRoutingOrders(t.db, m.merchantId), "payment_card_eur_hpp:test");
    expect(order?.connections.map((x) => x.connectionId)).toEqual([e, b, c, f, newer.id]);
  });

  it("skips a disabled connection but keeps its place; a deleted one leaves the order", async () => {
    const { m, b, c, e, f } = await eurMerchant();
    await save(m, [f, e, c, b]);
    await disable(t.db, m.merchantId, f);
    expect(await candidates(m)).toEqual([e, c, b]);
    const listed = orderOf(await getRoutingOrders(t.db, m.merchantId), "payment_card_eur_hpp:test")!.connections;
    expect(listed.map((x) => [x.connectionId, x.enabled, x.position])).toEqual([
      [f, false, 1],
      [e, true, 2],
      [c, true, 3],
      [b, true, 4],
    ]);
    await remove(t.db, m.merchantId, e);
    expect(await candidates(m)).toEqual([c, b]);
    expect(orderOf(await getRoutingOrders(t.db, m.merchantId), "payment_card_eur_hpp:test")!.connections.map((x) => x.connectionId)).toEqual([f, c, b]);
  });

  it("lists every service × mode the merchant has a connection for, with labels, providers and enabled state", async () => {
    const m = await invoiceMerchant(t.db);
    const b = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const live = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live" });
    await disable(t.db, m.merchantId, live.id);
    const orders = await getRoutingOrders(t.db, m.merchantId);
    expect(orders.map((order) => order.id)).toEqual(["payment_card_eur_hpp:live", "payment_card_eur_hpp:test"]);
    expect(orders[1]).toMatchObject({
      service: "payment_card_eur_hpp",
      currency: "EUR",
      direction: "payment",
      mode: "test",
      updatedAt: null,
      connections: [{ connectionId: b.id, label: b.label, provider: "provider-b", providerName: "Provider B", enabled: true, position: 1 }],
    });
    expect(orders[0]?.connections).toMatchObject([{ connectionId: live.id, enabled: false }]);
    expect(await getRoutingOrders(t.db, (await invoiceMerchant(t.db)).merchantId)).toEqual([]);
  });

  it("refuses duplicates and ids routing could never use, each at its index", async () => {
    const { m, b, c, e, f } = await eurMerchant();
    const stranger = await invoiceMerchant(t.db);
    const foreign = await connect(t.db, stranger.merchantId, "provider-b", "h2h");
    const live = await connect(t.db, m.merchantId, "provider-f", "h2h", { mode: "live" });
    const amd = await connect(t.db, m.merchantId, "provider-c", "h2h");
    const deleted = await connect(t.db, m.merchantId, "provider-b", "h2h");
    await remove(t.db, m.merchantId, deleted.id);
    const refused = await save(m, [c, b, c, foreign.id, live.id, amd.id, deleted.id, "not-an-id"]);
    expect(refused.ok ? [] : refused.problems.map((p) => [p.path.join("."), p.code])).toEqual([
      ["connectionIds.2", "duplicate"],
      ["connectionIds.3", "not_found"],
      ["connectionIds.4", "mode_mismatch"],
      ["connectionIds.5", "service_not_offered"],
      ["connectionIds.6", "not_found"],
      ["connectionIds.7", "not_found"],
    ]);
    expect(await candidates(m)).toEqual([b, c, e, f]);
    expect(orderOf(await getRoutingOrders(t.db, m.merchantId), "payment_card_eur_hpp:test")?.updatedAt).toBeNull();
  });

  it("writes one audit entry naming each connection that changes place, and nothing for a save that moves nothing", async () => {
    const { m, b, c, e, f } = await eurMerchant();
    const routingEntries = async () => (await listAuditLog(t.db, m.merchantId, { group: "routing" })).entries;
    expect((await save(m, [b, c, e, f])).ok).toBe(true);
    expect(await routingEntries()).toEqual([]);
    const saved = await save(m, [c, b]);
    expect(saved.ok && saved.value.updatedBy).toBe(OWNER.label);
    const [entry, ...rest] = await routingEntries();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ actorLabel: OWNER.label, action: "routing.saved", targetType: "routing", targetId: "payment_card_eur_hpp:test" });
    expect(entry!.changes).toHaveLength(2);
    expect(entry!.changes[0]).toMatch(/: position 2 → 1$/);
    expect(entry!.changes[1]).toMatch(/: position 1 → 2$/);
    void [e, f];
  });
});

describe("saveRoutingOrderAction (the Routing page)", () => {
  let m: InvoiceMerchant;
  let ownerId: string;
  let supportId: string;
  beforeAll(async () => {
    ({ ownerId, supportId, ...m } = await teamMerchant(t.db));
  });

  it("saves an owner's order, names the person in the audit trail, and refuses support members", async () => {
    const first = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const second = await connect(t.db, m.merchantId, "provider-f", "h2h");
    const input = { ...TEST_EUR, connectionIds: [second.id, first.id] };
    session.userId = supportId;
    expect(await saveRoutingOrderAction(input)).toMatchObject({ ok: false, message: "Your role (Support) may not change routing." });
    session.userId = ownerId;
    expect(await saveRoutingOrderAction(input)).toEqual({ ok: true, data: { id: "payment_card_eur_hpp:test", connectionIds: [second.id, first.id] } });
    expect((await listAuditLog(t.db, m.merchantId, { group: "routing" })).entries[0]).toMatchObject({
      action: "routing.saved",
      actorType: "user",
      actorId: ownerId,
      actorLabel: expect.stringContaining("Olga Owner"),
    });
    const refused = await saveRoutingOrderAction({ ...TEST_EUR, connectionIds: [first.id, first.id] });
    expect(refused).toMatchObject({ ok: false, fieldErrors: { "connectionIds.1": expect.stringContaining("more than once") } });
  });
});

type OrderResource = { type: string; id: string; attributes: RoutingOrderAttributes; links: { self: string } };

describe("GET /api/routing and PATCH /api/routing/{service}:{mode}", () => {
  const list = (key: string | null) => send<OrderResource[]>(GET_ORDERS, {}, { key, path: "/api/routing" });
  const read = (key: string, id: string) => send<OrderResource, { id: string }>(GET_ORDER, { id }, { key, path: `/api/routing/${id}` });
  const patch = (key: string, id: string, attributes: unknown, extra: Record<string, unknown> = {}) =>
    send<OrderResource, { id: string }>(
      PATCH,
      { id },
      { method: "PATCH", key, path: `/api/routing/${id}`, body: { data: { type: "routing-order", ...extra, attributes } } },
    );

  it("lists the orders as JSON:API resources and reorders one with connection_ids", async () => {
    const { m, b, c, e, f } = await eurMerchant();
    const listed = await list(m.key);
    expect(listed.status).toBe(200);
    const eur = listed.json.data.find((resource) => resource.id === "payment_card_eur_hpp:test");
    expect(eur).toMatchObject({
      type: "routing-order",
      attributes: { service: "payment_card_eur_hpp", currency: "EUR", mode: "test", connection_ids: [b, c, e, f], updated: null },
      links: { self: `${publicBaseUrl()}/api/routing/payment_card_eur_hpp:test` },
    });
    const patched = await patch(m.key, "payment_card_eur_hpp:test", { connection_ids: [e, f] }, { id: "payment_card_eur_hpp:test" });
    expect(patched.status).toBe(200);
    expect(patched.json.data.attributes.connection_ids).toEqual([e, f, b, c]);
    expect(patched.json.data.attributes.connections[0]).toMatchObject({ id: e, provider: "provider-e", enabled: true, position: 1 });
    expect(await candidates(m)).toEqual([e, f, b, c]);
    expect((await listAuditLog(t.db, m.merchantId, { group: "routing" })).entries[0]).toMatchObject({
      action: "routing.saved",
      actorType: "api_key",
      actorId: m.keyId,
      actorLabel: `API key ${m.keyId}`,
    });
    expect((await read(m.key, "payment_card_eur_hpp%3Atest")).json.data.attributes.connection_ids).toEqual([e, f, b, c]);
  });

  it("answers problems as JSON:API errors with pointers at connection_ids", async () => {
    const { m, b } = await eurMerchant();
    const live = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live" });
    const refused = await patch(m.key, "payment_card_eur_hpp:test", { connection_ids: [b, b, live.id] });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual([
      ["/data/attributes/connection_ids/1", "duplicate"],
      ["/data/attributes/connection_ids/2", "mode_mismatch"],
    ]);
    expect(errorsOf(await patch(m.key, "payment_card_eur_hpp:test", { connection_ids: "b" }))).toEqual([["/data/attributes/connection_ids", "invalid_type"]]);
    expect(errorsOf(await patch(m.key, "payment_card_eur_hpp:test", { connection_ids: [b], order: 1 }))).toEqual([
      ["/data/attributes/order", "unrecognized_keys"],
    ]);
    expect(errorsOf(await patch(m.key, "payment_card_eur_hpp:test", {}))).toEqual([["/data/attributes/connection_ids", "required"]]);
  });

  it("answers 404 for an order no connection offers, an unknown service or mode, 409 for another id and 401 without a key", async () => {
    const { m, b } = await eurMerchant();
    for (const id of ["payment_card_uah_hpp:test", "payment_card_eur_hpp:live", "nothing:test", "payment_card_eur_hpp:prod", "%E0%A4%A"]) {
      expect((await patch(m.key, id, { connection_ids: [b] })).status, id).toBe(404);
      expect((await read(m.key, id)).status, id).toBe(404);
    }
    const other = await patch(m.key, "payment_card_eur_hpp:test", { connection_ids: [b] }, { id: "payment_card_eur_hpp:live" });
    expect([other.status, errorsOf(other)]).toEqual([409, [["/data/id", "id_mismatch"]]]);
    expect((await list(null)).status).toBe(401);
    const stranger = await invoiceMerchant(t.db);
    expect((await read(stranger.key, "payment_card_eur_hpp:test")).status).toBe(404);
    expect((await list(stranger.key)).json.data).toEqual([]);
  });
});
