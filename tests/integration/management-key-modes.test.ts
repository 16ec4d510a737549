import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as LIST_CONNECTIONS, POST as CREATE_CONNECTION } from "@/app/api/connections/route";
import { DELETE as DELETE_CONNECTION, GET as GET_CONNECTION, PATCH as EDIT_CONNECTION } from "@/app/api/connections/[id]/route";
import { GET as LIST_ROUTING } from "@/app/api/routing/route";
import { GET as GET_ROUTING, PATCH as SAVE_ROUTING } from "@/app/api/routing/[id]/route";
import { GET as COMPARE_ROUTING } from "@/app/api/routing/[id]/compare/route";
import { POST as ROLL_BACK_ROUTING } from "@/app/api/routing/[id]/rollback/route";
import { GET as ROUTING_VERSIONS } from "@/app/api/routing/[id]/versions/route";
import { GET as ROUTING_VERSION } from "@/app/api/routing/[id]/versions/[version]/route";
import { GET as GET_SETTINGS, PATCH as SAVE_SETTINGS } from "@/app/api/routing/settings/route";
import { POST as SIMULATE_ROUTING } from "@/app/api/routing/simulate/route";
import { createApiKey } from "@/lib/api-keys/queries";
import { resetRateLimits } from "@/lib/api/rate-limit";
import type { RouteHandler } from "@/lib/api/run-logged";
import type { ConnectionView } from "@/lib/connections/store";
import { connections } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import type { Mode } from "@/lib/providers";
import { createAttributes } from "./helpers/connection-fixtures";
import { setUpTestDb, unique } from "./helpers/db";
import { connect, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { send } from "./helpers/send";
import { snapshotTenant } from "./helpers/tenant-world";

/**
 * The management API serves the API key's mode only, as the invoice API does: a leaked test key
 * must not change, remove, add or even see live connections and live routing (it could send live
 * payments to another account), and a live key leaves test configuration alone. Every refusal says
 * which key to use, in one sentence per key mode.
 */
const t = setUpTestDb();

const RULE: Record<Mode, string> = {
  test: "A test API key (pok_test_…) manages test-mode connections and routing only; live ones, and the routing settings both modes share, need a live API key (pok_live_…).",
  live: "A live API key (pok_live_…) manages live-mode connections and routing only; test ones need a test API key (pok_test_…).",
};
const OTHER: Record<Mode, Mode> = { test: "live", live: "test" };

type Resource = { id: string; attributes: Record<string, unknown> };

let m: TeamMerchant;
const keys = {} as Record<Mode, string>;
const connection = {} as Record<Mode, ConnectionView>;
const order = {} as Record<Mode, string>;

beforeAll(async () => {
  m = await teamMerchant(t.db);
  keys.test = m.key;
  keys.live = (await createApiKey(t.db, { merchantId: m.merchantId, name: "live", mode: "live" })).key;
  for (const mode of ["test", "live"] as const) {
    connection[mode] = await connect(t.db, m.merchantId, "provider-a", "h2h", { mode });
    order[mode] = `${connection[mode].services[0]}:${mode}`;
  }
});
beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** The merchant's rows but its keys' last use, which any call may move. */
async function configuration() {
  const { api_keys: _keys, ...rest } = await snapshotTenant(t.db, m.merchantId);
  return rest;
}

const connectionBody = (attributes: Record<string, unknown>) => ({ data: { type: "connection", attributes } });

describe.each(["test", "live"] as const)("a %s key", (mode) => {
  const other = OTHER[mode];

  it(`neither reads, changes nor removes a ${other} connection: GET, PATCH and DELETE answer 404 saying which key to use, and the connection stays as it was`, async () => {
    const id = connection[other].id;
    const key = keys[mode];
    const before = await configuration();
    const path = `/api/connections/${id}`;
    const answers = [
      await send(GET_CONNECTION, { id }, { path, key }),
      await send(
        EDIT_CONNECTION,
        { id },
        {
          method: "PATCH",
          path,
          key,
          body: { data: { type: "connection", id, attributes: { label: "taken over", mode: null, enabled: false, credentials: null, constants: null } } },
        },
      ),
      await send(DELETE_CONNECTION, { id }, { method: "DELETE", path, key }),
    ];
    for (const answer of answers) {
      expect([answer.status, answer.json.errors[0]?.code]).toEqual([404, "not_found"]);
      expect(answer.json.errors[0]?.detail).toContain(RULE[mode]);
      expect(answer.text).not.toContain(connection[other].label);
    }
    expect(await configuration()).toEqual(before);
    const [row] = await t.db.select().from(connections).where(eq(connections.id, id));
    expect([row?.label, row?.deletedAt]).toEqual([connection[other].label, null]);

    // The key's own mode is found.
    const own = connection[mode].id;
    expect((await send(GET_CONNECTION, { id: own }, { path: `/api/connections/${own}`, key })).status).toBe(200);
  });

  it(`is refused a ${other} connection on create (403 key_mode_mismatch at mode, nothing stored) and a list filtered to ${other} (403 naming filter[mode]); its lists hold ${mode} connections and routing orders only`, async () => {
    const key = keys[mode];
    const label = unique("wrong mode");
    const before = await configuration();
    const refused = await send(
      CREATE_CONNECTION,
      {},
      { method: "POST", path: "/api/connections", key, body: connectionBody(createAttributes("provider-b", "h2h", other, { label })) },
    );
    expect([refused.status, refused.json.errors[0]?.code, refused.json.errors[0]?.source?.pointer, refused.json.errors[0]?.detail]).toEqual([
      403,
      "key_mode_mismatch",
      "/data/attributes/mode",
      RULE[mode],
    ]);
    expect(await configuration()).toEqual(before);
    expect(await t.db.select().from(connections).where(eq(connections.label, label))).toEqual([]);

    const filtered = await send(LIST_CONNECTIONS, {}, { path: `/api/connections?filter[mode]=${other}`, key });
    expect([filtered.status, filtered.json.errors[0]?.code, filtered.json.errors[0]?.source?.parameter, filtered.json.errors[0]?.detail]).toEqual([
      403,
      "key_mode_mismatch",
      "filter[mode]",
      RULE[mode],
    ]);

    const listed = await send<Resource[]>(LIST_CONNECTIONS, {}, { path: "/api/connections", key });
    expect(listed.json.data.map((r) => r.id)).toContain(connection[mode].id);
    expect(listed.json.data.map((r) => r.attributes.mode)).toEqual(listed.json.data.map(() => mode));
    const orders = await send<Resource[]>(LIST_ROUTING, {}, { path: "/api/routing", key });
    expect(orders.json.data.map((r) => r.id)).toContain(order[mode]);
    expect(orders.json.data.map((r) => r.attributes.mode)).toEqual(orders.json.data.map(() => mode));

    // Its own mode is created as before.
    const created = await send<Resource>(
      CREATE_CONNECTION,
      {},
      { method: "POST", path: "/api/connections", key, body: connectionBody(createAttributes("provider-b", "h2h", mode)) },
    );
    expect([created.status, created.json.data.attributes.mode]).toEqual([201, mode]);
  });

  it(`neither reads nor saves the ${other} routing: the order, its versions, a version, the comparison and a rollback answer 404, and a ${other} simulation 403`, async () => {
    const key = keys[mode];
    const saved = await send(
      SAVE_ROUTING,
      { id: order[other] },
      {
        method: "PATCH",
        path: `/api/routing/${order[other]}`,
        key: keys[other],
        body: {
          data: {
            type: "routing-order",
            attributes: { rules: [{ name: "Everything", outcome: { kind: "cascade", connection_ids: [connection[other].id] } }] },
          },
        },
      },
    );
    // A version to ask about: the version routes refuse the other mode, not a missing version.
    expect([saved.status, (saved.json.data as Resource).attributes.version]).toEqual([200, 1]);
    const before = await configuration();
    const id = order[other];
    type Probe = [string, RouteHandler<{ id: string; version: string }>, string, string, unknown?];
    const probes: Probe[] = [
      ["GET order", GET_ROUTING as RouteHandler<{ id: string; version: string }>, "GET", `/api/routing/${id}`],
      [
        "PATCH order",
        SAVE_ROUTING as RouteHandler<{ id: string; version: string }>,
        "PATCH",
        `/api/routing/${id}`,
        { data: { type: "routing-order", attributes: { connection_ids: [connection[other].id] } } },
      ],
      ["GET versions", ROUTING_VERSIONS as RouteHandler<{ id: string; version: string }>, "GET", `/api/routing/${id}/versions`],
      ["GET version", ROUTING_VERSION, "GET", `/api/routing/${id}/versions/1`],
      ["GET compare", COMPARE_ROUTING as RouteHandler<{ id: string; version: string }>, "GET", `/api/routing/${id}/compare`],
      [
        "POST rollback",
        ROLL_BACK_ROUTING as RouteHandler<{ id: string; version: string }>,
        "POST",
        `/api/routing/${id}/rollback`,
        { data: { type: "routing-rollback", attributes: { version: 1 } } },
      ],
    ];
    const answers = [];
    for (const [name, handler, method, path, body] of probes) {
      const answer = await send(handler, { id, version: "1" }, { method, path, key, body });
      answers.push([name, answer.status, answer.json.errors?.[0]?.code, answer.json.errors?.[0]?.detail, answer.text.includes(connection[other].id)]);
    }
    expect(answers).toEqual(probes.map(([name]) => [name, 404, "not_found", expect.stringContaining(RULE[mode]), false]));
    const simulated = await send(
      SIMULATE_ROUTING,
      {},
      {
        method: "POST",
        path: "/api/routing/simulate",
        key,
        body: { data: { type: "routing-simulation", attributes: { service: connection[other].services[0], test_mode: other === "test", amount: "10.00" } } },
      },
    );
    expect([simulated.status, simulated.json.errors[0]?.code, simulated.json.errors[0]?.source?.pointer, simulated.json.errors[0]?.detail]).toEqual([
      403,
      "key_mode_mismatch",
      "/data/attributes/test_mode",
      RULE[mode],
    ]);
    expect(await configuration()).toEqual(before);

    // Its own mode's routing answers.
    expect((await send(GET_ROUTING, { id: order[mode] }, { path: `/api/routing/${order[mode]}`, key })).status).toBe(200);
  });
});

describe("the routing settings, which both modes share", () => {
  it("are read with either key and changed with a live key only: a test key's change is 403 key_mode_mismatch and nothing changes", async () => {
    const body = (window: number) => ({ data: { type: "routing-settings", attributes: { window_hours: window, min_sample: 5, exploration_percent: 3 } } });
    const path = "/api/routing/settings";
    const before = await configuration();
    const refused = await send(SAVE_SETTINGS, {}, { method: "PATCH", path, key: keys.test, body: body(7) });
    expect([refused.status, refused.json.errors[0]?.code, refused.json.errors[0]?.detail]).toEqual([403, "key_mode_mismatch", RULE.test]);
    expect(await configuration()).toEqual(before);

    const saved = await send<Resource>(SAVE_SETTINGS, {}, { method: "PATCH", path, key: keys.live, body: body(9) });
    expect([saved.status, saved.json.data.attributes.window_hours]).toEqual([200, 9]);
    for (const key of [keys.test, keys.live]) {
      const read = await send<Resource>(GET_SETTINGS, {}, { path, key });
      expect([read.status, read.json.data.attributes.window_hours]).toEqual([200, 9]);
    }
  });
});
