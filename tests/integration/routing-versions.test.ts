import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null), signIn: async () => undefined }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { PATCH } from "@/app/api/routing/[id]/route";
import { GET as COMPARE } from "@/app/api/routing/[id]/compare/route";
import { POST as ROLLBACK } from "@/app/api/routing/[id]/rollback/route";
import { GET as LIST } from "@/app/api/routing/[id]/versions/route";
import { GET as ONE } from "@/app/api/routing/[id]/versions/[version]/route";
import {
  compareRoutingVersionsAction,
  olderRoutingVersionsAction,
  rollbackRoutingAction,
  saveRoutingOrderAction,
  saveRoutingRulesAction,
} from "@/lib/actions/routing";
import { createApiKey } from "@/lib/api-keys/queries";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { describeAuditAction } from "@/lib/audit/actions";
import { listAuditLog } from "@/lib/audit/read";
import { auditLog, routingVersions } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import type { RoutingOrderAttributes } from "@/lib/api/routing-resource";
import { getRoutingOrder } from "@/lib/routing/orders";
import { getRoutingHistory } from "@/lib/routing/versions";
import { setUpTestDb } from "./helpers/db";
import { connect, disable, remove, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { errorsOf, send } from "./helpers/send";

/**
 * The routing order's versions, through the entry points a merchant uses: the history, one version and the
 * comparison of two through the API, the rollback through the API and the Routing page's actions
 * (a new version, audited), refused when a rule names a connection that is gone or disabled, the
 * read-only key's and the support member's limits, bad input named by its field, and a rollback
 * and a save at once taking different version numbers.
 */
const t = setUpTestDb();
const ORDER = "payment_card_eur_hpp:test";
const SERVICE = "payment_card_eur_hpp";

beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Version = {
  id: string;
  attributes: {
    version: number;
    current: boolean;
    restored_from: number | null;
    summary: string;
    saved_by: string | null;
    saved: string;
    rules: { name: string }[];
    connection_ids: string[];
  };
};
type Comparison = {
  attributes: { from: number; to: number; identical: boolean; changes: { kind: string; sentence: string }[]; notes: { state: string; sentence: string }[] };
};

const cascade = (ids: string[]) => ({ kind: "cascade", connection_ids: ids });

async function world() {
  const m = await teamMerchant(t.db);
  const b = await connect(t.db, m.merchantId, "provider-b", "h2h");
  const f = await connect(t.db, m.merchantId, "provider-f", "h2h");
  return { m, b: b.id, f: f.id, bLabel: b.label, fLabel: f.label };
}

const patch = (m: TeamMerchant, attributes: Record<string, unknown>) =>
  send<{ attributes: RoutingOrderAttributes }, { id: string }>(
    PATCH,
    { id: ORDER },
    { method: "PATCH", key: m.key, path: `/api/routing/${ORDER}`, body: { data: { type: "routing-order", attributes } } },
  );
const list = (key: string, query = "") => send<Version[], { id: string }>(LIST, { id: ORDER }, { key, path: `/api/routing/${ORDER}/versions${query}` });
const one = (key: string, version: string) =>
  send<Version, { id: string; version: string }>(ONE, { id: ORDER, version }, { key, path: `/api/routing/${ORDER}/versions/${version}` });
const compare = (key: string, query: string) =>
  send<Comparison, { id: string }>(COMPARE, { id: ORDER }, { key, path: `/api/routing/${ORDER}/compare${query}` });
const rollback = (key: string, attributes: unknown, type = "routing-rollback") =>
  send<{ attributes: RoutingOrderAttributes }, { id: string }>(
    ROLLBACK,
    { id: ORDER },
    { method: "POST", key, path: `/api/routing/${ORDER}/rollback`, body: { data: { type, attributes } } },
  );

/** Three versions: 1 a rule to F and the order B, F; 2 the rule removed; 3 the order F, B. */
async function threeVersions() {
  const w = await world();
  expect(
    (
      await patch(w.m, {
        connection_ids: [w.b, w.f],
        rules: [{ name: "Big French", conditions: { amount_min: "100.00", customer_countries: ["FR"] }, outcome: cascade([w.f]) }],
      })
    ).status,
  ).toBe(200);
  expect((await patch(w.m, { rules: [] })).status).toBe(200);
  expect((await patch(w.m, { connection_ids: [w.f, w.b] })).status).toBe(200);
  return w;
}

const versionRows = (merchantId: string) =>
  t.db
    .select({ version: routingVersions.version, restoredFrom: routingVersions.restoredFrom })
    .from(routingVersions)
    .where(eq(routingVersions.merchantId, merchantId))
    .orderBy(routingVersions.version);

describe("routing versions through the API", () => {
  it("lists the versions newest first with author, time and a one-line summary, page by page, and reads one", async () => {
    const { m, fLabel } = await threeVersions();
    const all = await list(m.key);
    expect(all.status).toBe(200);
    expect(all.json.data.map((v) => [v.attributes.version, v.attributes.current, v.attributes.summary])).toEqual([
      [3, true, `“${fLabel}” moved to 1`],
      [2, false, "Rule “Big French” removed"],
      [1, false, expect.stringMatching(/^First save: 1 rule, then .+, .+$/)],
    ]);
    expect(all.json.data[0]!.attributes.saved_by).toMatch(/^API key /);
    expect(Date.parse(all.json.data[0]!.attributes.saved)).not.toBeNaN();
    expect(all.json.meta).toEqual({ count: 3, current: 3 });

    const first = await list(m.key, "?page[size]=2");
    expect(first.json.data.map((v) => v.attributes.version)).toEqual([3, 2]);
    const next = (first.json as unknown as { links: { next: string } }).links.next;
    expect(decodeURIComponent(next)).toMatch(/\/api\/routing\/payment_card_eur_hpp:test\/versions\?page\[size\]=2&page\[before\]=2$/);
    const second = await list(m.key, "?page[size]=2&page[before]=2");
    expect(second.json.data.map((v) => v.attributes.version)).toEqual([1]);
    expect((second.json as unknown as { links: { next: null } }).links.next).toBeNull();

    const v1 = await one(m.key, "1");
    expect(v1.status).toBe(200);
    expect(v1.json.data).toMatchObject({ id: `${ORDER}:1`, attributes: { version: 1, current: false, rules: [{ name: "Big French" }] } });
  });

  it("compares two versions as sentences (current against the one before by default), naming connections disabled or deleted since", async () => {
    const { m, b, f, bLabel, fLabel } = await threeVersions();
    const latest = await compare(m.key, "");
    expect(latest.status).toBe(200);
    expect(latest.json.data.attributes).toMatchObject({
      from: 2,
      to: 3,
      identical: false,
      changes: [{ kind: "order_moved", sentence: `“${fLabel}” moved from position 2 to 1 in the routing order.` }],
    });

    const whole = await compare(m.key, "?from=1&to=3");
    expect(whole.json.data.attributes.changes.map((c) => c.sentence)).toEqual([
      `Rule 1 “Big French” removed (When amount at least 100.00 EUR, customer in FR → ${fLabel}).`,
      `“${fLabel}” moved from position 2 to 1 in the routing order.`,
    ]);
    expect(whole.json.data.attributes.notes).toEqual([]);

    await disable(t.db, m.merchantId, f);
    const c = await connect(t.db, m.merchantId, "provider-b", "h2h");
    expect((await patch(m, { connection_ids: [b, c.id] })).status).toBe(200);
    await remove(t.db, m.merchantId, c.id);
    const notes = (await compare(m.key, "?from=3&to=4")).json.data.attributes.notes;
    expect(notes).toEqual([
      { connection_id: f, state: "disabled", sentence: `“${fLabel}” is disabled now: routing skips it until it is enabled again.` },
      { connection_id: c.id, state: "deleted", sentence: `“${c.label}” no longer exists: it was deleted.` },
    ]);
    expect(bLabel).not.toBe(c.label);
    const same = await compare(m.key, "?from=2&to=2");
    expect(same.json.data.attributes).toMatchObject({ identical: true, changes: [] });
  });

  it("rolls back to a version as a new version, audited, and says so when it changes nothing", async () => {
    const { m, b, f } = await threeVersions();
    const rolled = await rollback(m.key, { version: 1 });
    expect(rolled.status).toBe(200);
    expect(rolled.json.meta).toEqual({ restored: 1, version: 4, changed: true, message: "Rolled back to version 1 as version 4." });
    expect(rolled.json.data.attributes).toMatchObject({ version: 4, connection_ids: [b, f], rules: [{ name: "Big French" }] });
    expect(await versionRows(m.merchantId)).toEqual([
      { version: 1, restoredFrom: null },
      { version: 2, restoredFrom: null },
      { version: 3, restoredFrom: null },
      { version: 4, restoredFrom: 1 },
    ]);
    expect((await list(m.key)).json.data[0]!.attributes).toMatchObject({ version: 4, current: true, restored_from: 1, summary: "Rolled back to version 1" });
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, m.merchantId), eq(auditLog.action, "routing.rolled_back")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: "api_key", actorId: m.keyId, targetId: ORDER });
    expect(audit[0]!.summary).toMatch(/^payment_card_eur_hpp \(test\): rolled back to version 1 as version 4: /);
    // The Audit log page's Routing filter shows it, in its own words.
    const page = await listAuditLog(t.db, m.merchantId, { group: "routing" });
    expect(page.entries[0]).toMatchObject({ action: "routing.rolled_back", summary: audit[0]!.summary });
    expect(describeAuditAction("routing.rolled_back")).toBe("Routing rolled back to an earlier version");

    // Version 1 again (now equal to 4), and version 4 itself: nothing changes, and the answer says so.
    const again = await rollback(m.key, { version: 1 });
    expect(again.json.meta).toEqual({
      restored: 1,
      version: null,
      changed: false,
      message: "Version 1 has the rules and order routing uses now: nothing changed.",
    });
    expect((await rollback(m.key, { version: 4 })).json.meta).toMatchObject({ changed: false, message: "Version 4 is the current version: nothing changed." });
    expect(await versionRows(m.merchantId)).toHaveLength(4);
  });

  it("refuses a version whose rule names a connection deleted or disabled since, naming the rule and the connection; nothing is saved", async () => {
    const { m, b, f, fLabel } = await world();
    const c = await connect(t.db, m.merchantId, "provider-b", "h2h");
    expect(
      (
        await patch(m, {
          rules: [
            { name: "To C", outcome: cascade([c.id]) },
            { name: "To F", outcome: cascade([f]) },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await patch(m, { rules: [] })).status).toBe(200);
    await remove(t.db, m.merchantId, c.id);
    await disable(t.db, m.merchantId, f);
    const refused = await rollback(m.key, { version: 1 });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual([
      ["/data/attributes/version", "cannot_restore"],
      ["/data/attributes/version", "cannot_restore"],
    ]);
    expect(refused.json.errors.map((e) => e.detail)).toEqual([
      `Version 1 cannot be restored: rule 1 “To C” sends invoices to “${c.label}”, which was deleted. Edit the rules instead.`,
      `Version 1 cannot be restored: rule 2 “To F” sends invoices only to “${fLabel}”, and none of it is enabled now. Enable one first.`,
    ]);
    expect(await versionRows(m.merchantId)).toHaveLength(2);
    expect((await getRoutingOrder(t.db, m.merchantId, SERVICE, "test"))!.rules).toEqual([]);
    void b;
  });

  it("leaves out of the restored order a connection deleted since, as the routing order always does", async () => {
    const { m, b, f } = await world();
    const c = await connect(t.db, m.merchantId, "provider-b", "h2h");
    expect((await patch(m, { connection_ids: [c.id, f, b] })).status).toBe(200);
    expect((await patch(m, { connection_ids: [b, f, c.id] })).status).toBe(200);
    await remove(t.db, m.merchantId, c.id);
    const rolled = await rollback(m.key, { version: 1 });
    expect(rolled.status).toBe(200);
    expect(rolled.json.data.attributes.connection_ids).toEqual([f, b]);
  });

  it("confirms a rollback with what it then stores, when connections joined and moved after that version", async () => {
    const { m, b, f } = await world();
    // Version 1: F before B (the default, oldest first, is B before F).
    expect((await patch(m, { connection_ids: [f, b] })).status).toBe(200);
    const c = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const d = await connect(t.db, m.merchantId, "provider-f", "h2h");
    // Version 2 puts the two newer connections first, the newest before the older.
    expect((await patch(m, { connection_ids: [d.id, c.id, f, b] })).status).toBe(200);
    const order = (await getRoutingOrder(t.db, m.merchantId, SERVICE, "test"))!;
    const confirmation = (await getRoutingHistory(t.db, m.merchantId, order)).versions.find((entry) => entry.version === 1)!.rollback!;
    expect(confirmation.unchanged).toBe(false);
    expect(confirmation.refusals).toEqual([]);
    const rolled = await rollback(m.key, { version: 1 });
    expect(rolled.status).toBe(200);
    // Version 1's order, then the connections it did not name, oldest first (as every save does).
    expect(rolled.json.data.attributes.connection_ids).toEqual([f, b, c.id, d.id]);
    // What the confirmation said is what the comparison of before and after says.
    const compared = await compare(m.key, "?from=2&to=3");
    expect(compared.status).toBe(200);
    expect(confirmation.changes).toEqual(compared.json.data.attributes.changes.map((change) => change.sentence));
  });

  it("writes no version when the same rules and order are sent again, whatever the order of their keys", async () => {
    const { m, b, f } = await world();
    const rule = {
      name: "Big French",
      conditions: { amount_min: "100.00", customer_countries: ["FR"] },
      outcome: { kind: "cascade", connection_ids: [f], order_by: "as_listed" },
    };
    expect((await patch(m, { connection_ids: [b, f], rules: [rule] })).status).toBe(200);
    // The stored rules come back from the database with their keys in another order; sent back as read, they are the same rules.
    const read = await patch(m, {
      rules: [{ outcome: { connection_ids: [f], kind: "cascade" }, name: "Big French", conditions: { customer_countries: ["FR"], amount_min: "100.00" } }],
    });
    expect(read.status).toBe(200);
    expect(read.json.data.attributes.version).toBe(1);
    expect((await versionRows(m.merchantId)).map((row) => row.version)).toEqual([1]);
  });

  it("answers a comparison of a routing never saved 404, whatever is asked", async () => {
    const { m } = await world();
    for (const query of ["", "?from=1", "?to=2", "?from=1&to=2"]) {
      const answer = await compare(m.key, query);
      expect(answer.status, query).toBe(404);
      expect(JSON.stringify(answer.json), query).toContain("never saved");
    }
  });

  it("lets a read-only key read the history and compare, never roll back", async () => {
    const { m } = await threeVersions();
    const reader = (await createApiKey(t.db, { merchantId: m.merchantId, name: "reader", mode: "test", scope: "read_only" })).key;
    expect((await list(reader)).status).toBe(200);
    expect((await one(reader, "2")).status).toBe(200);
    expect((await compare(reader, "?from=1&to=2")).status).toBe(200);
    const refused = await rollback(reader, { version: 1 });
    expect(refused.status).toBe(403);
    expect(refused.json.errors[0]!.code).toBe("insufficient_scope");
    expect(await versionRows(m.merchantId)).toHaveLength(3);
  });

  it("answers an unknown version 404 and bad parameters and bodies by name", async () => {
    const { m } = await threeVersions();
    for (const version of ["9", "0", "abc"]) {
      const missing = await one(m.key, version);
      expect(missing.status, version).toBe(404);
      expect(missing.json.errors[0]!.detail, version).toMatch(
        version === "9" ? /^Version 9 of payment_card_eur_hpp \(test\) does not exist: the versions are 1 to 3$/ : /versions are numbered 1 to 3/,
      );
    }
    expect((await compare(m.key, "?from=1&to=7")).status).toBe(404);
    expect((await compare(m.key, "?from=1&to=7")).json.errors[0]!.detail).toBe(
      "Version 7 of payment_card_eur_hpp (test) does not exist: the versions are 1 to 3",
    );
    const reversed = await compare(m.key, "?from=3&to=1");
    expect(reversed.status).toBe(400);
    expect(reversed.json.errors.map((e) => [e.source?.parameter, e.code])).toEqual([["from", "invalid_range"]]);
    const words = await compare(m.key, "?from=one&to=2.5");
    expect(words.json.errors.map((e) => [e.source?.parameter, e.code])).toEqual([
      ["from", "invalid_parameter"],
      ["to", "invalid_parameter"],
    ]);
    expect((await list(m.key, "?page[size]=1000")).json.errors.map((e) => e.source?.parameter)).toEqual(["page[size]"]);
    expect((await list(m.key, "?page[before]=-1")).json.errors.map((e) => e.source?.parameter)).toEqual(["page[before]"]);

    expect((await rollback(m.key, { version: 99 })).status).toBe(404);
    for (const attributes of [{ version: "1" }, { version: 1.5 }, { version: 0 }, {}]) {
      const bad = await rollback(m.key, attributes);
      expect(bad.status, JSON.stringify(attributes)).toBe(422);
      expect(
        errorsOf(bad).map(([pointer]) => pointer),
        JSON.stringify(attributes),
      ).toEqual(["/data/attributes/version"]);
    }
    expect(errorsOf(await rollback(m.key, { version: 1, extra: true }))).toEqual([["/data/attributes/extra", "unrecognized_keys"]]);
    expect(errorsOf(await rollback(m.key, { version: 1 }, "routing-order"))).toEqual([["/data/type", "invalid_value"]]);
    expect(await versionRows(m.merchantId)).toHaveLength(3);
  });

  it("gives a rollback and a save at the same moment different version numbers", async () => {
    const { m, b, f } = await threeVersions();
    const [rolled, saved] = await Promise.all([rollback(m.key, { version: 1 }), patch(m, { rules: [{ name: "Everything to B", outcome: cascade([b]) }] })]);
    expect([rolled.status, saved.status]).toEqual([200, 200]);
    // Each wrote its own version; the save's answer reads the order after both, so only the rows tell which took which.
    expect([4, 5]).toContain(rolled.json.meta!.version);
    const rows = await versionRows(m.merchantId);
    expect(rows.map((row) => row.version)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.find((row) => row.version === rolled.json.meta!.version)?.restoredFrom).toBe(1);
    expect(rows.filter((row) => row.restoredFrom === 1)).toHaveLength(1);
    void f;
  });
});

describe("routing versions through the Routing page's actions", () => {
  it("compares, then rolls back as the owner; the support member may compare but not roll back", async () => {
    const w = await world();
    session.userId = w.m.ownerId;
    expect((await saveRoutingRulesAction({ service: SERVICE, mode: "test", rules: [{ name: "All to F", conditions: {}, outcome: cascade([w.f]) }] })).ok).toBe(
      true,
    );
    expect((await saveRoutingOrderAction({ service: SERVICE, mode: "test", connectionIds: [w.f, w.b] })).ok).toBe(true);
    expect((await saveRoutingRulesAction({ service: SERVICE, mode: "test", rules: [] })).ok).toBe(true);

    const compared = await compareRoutingVersionsAction({ service: SERVICE, mode: "test", from: 2, to: 3 });
    expect(compared).toEqual({
      ok: true,
      data: { from: 2, to: 3, changes: [{ kind: "rule_removed", sentence: `Rule 1 “All to F” removed (Every invoice → ${w.fLabel}).` }], notes: [] },
    });

    session.userId = w.m.supportId;
    expect((await compareRoutingVersionsAction({ service: SERVICE, mode: "test", from: 1, to: 3 })).ok).toBe(true);
    expect(await rollbackRoutingAction({ service: SERVICE, mode: "test", version: 1 })).toEqual({
      ok: false,
      fieldErrors: {},
      message: "Your role (Support) may not change routing.",
    });
    expect(await versionRows(w.m.merchantId)).toHaveLength(3);

    session.userId = w.m.ownerId;
    expect(await rollbackRoutingAction({ service: SERVICE, mode: "test", version: 1 })).toEqual({
      ok: true,
      data: { restored: 1, version: 4, message: "Rolled back to version 1 as version 4." },
    });
    const order = (await getRoutingOrder(t.db, w.m.merchantId, SERVICE, "test"))!;
    expect(order.rules.map((rule) => rule.name)).toEqual(["All to F"]);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, w.m.merchantId), eq(auditLog.action, "routing.rolled_back")));
    expect(audit).toMatchObject({ actorType: "user", actorId: w.m.ownerId });
  });

  it("shows older versions page by page after the Routing page's first 20, each with its summary and rollback, for any member; a save in between starts over", async () => {
    const w = await world();
    session.userId = w.m.ownerId;
    // 45 versions: the order flips each time (odd versions F, B; even ones B, F, the order before any save).
    for (let version = 1; version <= 45; version += 1) {
      expect((await saveRoutingOrderAction({ service: SERVICE, mode: "test", connectionIds: version % 2 ? [w.f, w.b] : [w.b, w.f] })).ok).toBe(true);
    }
    const order = (await getRoutingOrder(t.db, w.m.merchantId, SERVICE, "test"))!;
    const first = await getRoutingHistory(t.db, w.m.merchantId, order);
    expect(first.versions.map((v) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => 45 - i));
    expect(first.olderBefore).toBe(26);

    // A support member reads the history too.
    session.userId = w.m.supportId;
    const second = await olderRoutingVersionsAction({ service: SERVICE, mode: "test", before: 26 });
    if (!second.ok) throw new Error(JSON.stringify(second));
    expect(second.data.current).toBe(45);
    expect(second.data.versions.map((v) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    expect(second.data.olderBefore).toBe(6);
    // The page's oldest is compared with the version before it, beyond the page.
    expect(second.data.versions.at(-1)).toMatchObject({ version: 6, summary: expect.stringContaining(`“${w.bLabel}” moved to 1`), current: false });
    // Each with what a rollback to it would do against version 45 (F, B): version 6 has B first, version 7 is the same as now.
    expect(second.data.versions.at(-1)!.rollback).toMatchObject({
      unchanged: false,
      changes: expect.arrayContaining([`“${w.bLabel}” moved from position 2 to 1 in the routing order.`]),
      refusals: [],
    });
    expect(second.data.versions.at(-2)!.rollback).toEqual({ unchanged: true, changes: [], notes: [], refusals: [] });

    const last = await olderRoutingVersionsAction({ service: SERVICE, mode: "test", before: 6 });
    if (!last.ok) throw new Error(JSON.stringify(last));
    expect(last.data.versions.map((v) => v.version)).toEqual([5, 4, 3, 2, 1]);
    expect(last.data.versions.at(-1)!.summary).toBe(`First save: ${w.fLabel}, ${w.bLabel}`);
    expect(last.data.olderBefore).toBeNull();
    expect(await olderRoutingVersionsAction({ service: SERVICE, mode: "test", before: 1 })).toEqual({
      ok: true,
      data: { current: 45, versions: [], olderBefore: null },
    });

    // A save between two pages: the answer says which version is the latest now.
    session.userId = w.m.ownerId;
    expect((await saveRoutingOrderAction({ service: SERVICE, mode: "test", connectionIds: [w.b, w.f] })).ok).toBe(true);
    expect(await olderRoutingVersionsAction({ service: SERVICE, mode: "test", before: 26 })).toMatchObject({ ok: true, data: { current: 46 } });
    // Bad input is named by its field; another service is none of its business.
    expect(await olderRoutingVersionsAction({ service: SERVICE, mode: "test", before: 0 })).toMatchObject({
      ok: false,
      fieldErrors: { before: expect.stringContaining("version number") },
    });
    expect(await olderRoutingVersionsAction({ service: SERVICE, mode: "test", before: "26" })).toMatchObject({
      ok: false,
      fieldErrors: { before: expect.stringContaining("version number") },
    });
    expect(await olderRoutingVersionsAction({ service: "payment_nope", mode: "test", before: 2 })).toMatchObject({
      ok: false,
      fieldErrors: { service: expect.stringContaining("No connection of yours offers") },
    });
    session.userId = undefined;
    expect(await olderRoutingVersionsAction({ service: SERVICE, mode: "test", before: 26 })).toMatchObject({ ok: false });
  });

  it("names the field of bad input: a version that does not exist, from after to, not a number", async () => {
    const w = await world();
    session.userId = w.m.ownerId;
    expect((await saveRoutingOrderAction({ service: SERVICE, mode: "test", connectionIds: [w.f, w.b] })).ok).toBe(true);
    expect((await saveRoutingOrderAction({ service: SERVICE, mode: "test", connectionIds: [w.b, w.f] })).ok).toBe(true);
    expect(await rollbackRoutingAction({ service: SERVICE, mode: "test", version: 7 })).toEqual({
      ok: false,
      fieldErrors: { version: "Version 7 of payment_card_eur_hpp (test) does not exist: the versions are 1 to 2" },
    });
    // A version that does not exist is named before the order of the two is judged.
    expect(await compareRoutingVersionsAction({ service: SERVICE, mode: "test", from: 3, to: 1 })).toMatchObject({
      ok: false,
      fieldErrors: { from: expect.stringContaining("Version 3 of payment_card_eur_hpp (test) does not exist") },
    });
    expect(await compareRoutingVersionsAction({ service: SERVICE, mode: "test", from: 2, to: 1 })).toMatchObject({
      ok: false,
      fieldErrors: { from: "Version 2 comes after version 1: compare the older version (from) with the newer (to)" },
    });
    expect(await compareRoutingVersionsAction({ service: SERVICE, mode: "test", from: "x", to: 1 })).toMatchObject({
      ok: false,
      fieldErrors: { from: expect.stringContaining("version number") },
    });
    expect(await rollbackRoutingAction({ service: SERVICE, mode: "test", version: -1 })).toMatchObject({
      ok: false,
      fieldErrors: { version: expect.stringContaining("version number") },
    });
    expect(await rollbackRoutingAction({ service: "payment_nope", mode: "test", version: 1 })).toMatchObject({
      ok: false,
      fieldErrors: { service: expect.stringContaining("No connection of yours offers") },
    });
    expect(await versionRows(w.m.merchantId)).toHaveLength(2);
  });
});
