import { describe, expect, it } from "vitest";
import { GET as LIST, POST } from "@/app/api/connections/route";
import { GET as GET_ONE, PATCH } from "@/app/api/connections/[id]/route";
import { openSecrets } from "@/lib/connections/store";
import { findConnectionRow } from "@/lib/connections/queries";
import { updateConnectionSchema } from "@/lib/connections/schemas";
import { updateConnection } from "@/lib/connections/service";
import { kindOf } from "@/lib/connections/store";
import { addTeamMember, changeMemberRole } from "@/lib/merchants/team";
import { findViewer } from "@/lib/identity/membership";
import { unique, setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant } from "./helpers/invoice-fixtures";
import { eq } from "drizzle-orm";
import { users } from "@/lib/db/schema";

const t = setUpTestDb();

const ctx = (params: Record<string, string> = {}) => ({ params: Promise.resolve(params) });

describe("input PostgreSQL cannot store is a field error, never a 500", () => {
  it("refuses a NUL in a label and an unpaired surrogate in a credential with pointers; odd ids and filters find nothing", async () => {
    const m = await invoiceMerchant(t.db);
    const headers = { authorization: `Bearer ${m.key}`, "content-type": "application/json" };
    const body = JSON.stringify({ data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label: "a\u0000b", mode: "test", credentials: { terminal_id: "\ud800", secret_key: "s", currency: "EUR" } } } });
    const created = await POST(new Request("http://test/api/connections", { method: "POST", headers, body }), ctx());
    expect(created.status).toBe(422);
    const errors = (await created.json()).errors;
    expect(errors[0]).toMatchObject({ code: "invalid_character", source: { pointer: "/data/attributes/label" } });

    expect((await GET_ONE(new Request("http://test/api/connections/x", { headers }), { params: Promise.resolve({ id: "conn_\u0000" }) })).status).toBe(404);
    const filtered = await LIST(new Request("http://test/api/connections?filter[provider]=%00", { headers }), ctx());
    expect(filtered.status).toBe(200);
    expect((await filtered.json()).data).toEqual([]);
    const patch = await PATCH(new Request("http://test/api/connections/conn_x", { method: "PATCH", headers, body: "{}" }), { params: Promise.resolve({ id: "conn_\u0000" }) });
    expect(patch.status).toBe(404);
  });
});

describe("concurrent writes", () => {
  it("applies a secret rotation and a disable made at the same time one after the other", async () => {
    const m = await invoiceMerchant(t.db);
    const view = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const row = (await findConnectionRow(t.db, m.merchantId, view.id))!;
    const vaultKey = Buffer.from(process.env.CREDENTIALS_KEY!, "base64");
    const scope = { db: t.db, merchantId: m.merchantId, actor: { label: "test" }, vaultKey };
    const schema = updateConnectionSchema(kindOf(row));
    const rotate = schema.parse({ credentials: { secret_key: "rotated-secret-9999" } });
    const disable = schema.parse({ enabled: false });
    // The fixture's vault key differs from this test's; re-seal first so both writes can read the row.
    await t.db.update((await import("@/lib/db/schema")).connections).set({ secretCredentials: (await import("@/lib/vault")).encryptJson({ secret_key: "first-secret-1111" }, vaultKey) }).where(eq((await import("@/lib/db/schema")).connections.id, view.id));
    const [a, b] = await Promise.all([updateConnection(scope, view.id, rotate), updateConnection(scope, view.id, disable)]);
    expect(a?.ok && b?.ok).toBe(true);
    const after = (await findConnectionRow(t.db, m.merchantId, view.id))!;
    expect(openSecrets(after, vaultKey).secret_key).toBe("rotated-secret-9999");
    expect(after.enabled).toBe(false);
  });

  it("never lets two owners demote each other at once and leave the merchant without one", async () => {
    const m = await invoiceMerchant(t.db);
    const [first] = await t.db.select().from(users).where(eq(users.merchantId, m.merchantId));
    const second = await addTeamMember(t.db, m.merchantId, { name: "Two", email: `${unique("two")}@example.com`, role: "owner", password: "owner-pass-123" });
    if (!second.ok) throw new Error("setup");
    const viewerA = (await findViewer(t.db, first!.id))!;
    const viewerB = (await findViewer(t.db, second.value.id))!;
    const results = await Promise.all([
      changeMemberRole(t.db, viewerA, first!.id, "support"),
      changeMemberRole(t.db, viewerB, second.value.id, "support"),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const roles = (await t.db.select({ role: users.role }).from(users).where(eq(users.merchantId, m.merchantId))).map((r) => r.role);
    expect(roles).toContain("owner");
  });
});


