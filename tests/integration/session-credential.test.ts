import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/commerce/payment-invoices/route";
import { mintSessionCredential } from "@/lib/api-keys/session-credential";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { addTeamMember, removeMember } from "@/lib/merchants/team";
import { findViewer } from "@/lib/identity/membership";
import { users } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import { unique, setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference } from "./helpers/invoice-fixtures";

const t = setUpTestDb();

function post(token: string, body: unknown) {
  return POST(
    new Request("http://test/api/commerce/payment-invoices", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
}

describe("the composer's short-lived credential", () => {
  it("lets an owner create live and test invoices, a support member test ones only, and dies with the membership", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "test" });
    await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live" });
    const [owner] = await t.db.select().from(users).where(eq(users.merchantId, m.merchantId));
    const support = await addTeamMember(t.db, m.merchantId, {
      name: "Sam",
      email: `${unique("sam")}@example.com`,
      role: "support",
      password: "support-pass-99",
    });
    if (!support.ok) throw new Error("setup");
    const example = PAYMENT_EXAMPLES["B: EUR without customer"];

    const ownerToken = mintSessionCredential({ merchantId: m.merchantId, userId: owner!.id, role: "owner" });
    expect((await post(ownerToken, bodyFor(example, m.account, { reference_id: newReference(), test_mode: false }))).status).toBe(201);

    const supportToken = mintSessionCredential({ merchantId: m.merchantId, userId: support.value.id, role: "support" });
    const live = await post(supportToken, bodyFor(example, m.account, { reference_id: newReference(), test_mode: false }));
    expect(live.status).toBe(403);
    expect((await live.json()).errors[0]).toMatchObject({ code: "test_mode_only", source: { pointer: "/data/attributes/test_mode" } });
    expect((await post(supportToken, bodyFor(example, m.account, { reference_id: newReference(), test_mode: true }))).status).toBe(201);

    const viewer = (await findViewer(t.db, owner!.id))!;
    expect((await removeMember(t.db, viewer, support.value.id)).ok).toBe(true);
    expect((await post(supportToken, bodyFor(example, m.account, { reference_id: newReference(), test_mode: true }))).status).toBe(401);
    expect((await post(`${ownerToken}x`, bodyFor(example, m.account, { reference_id: newReference() }))).status).toBe(401);
  });
});

describe("the composer's credential outside the invoice API", () => {
  it("is refused by the management API, so a support member cannot touch connections with it", async () => {
    const { POST: CREATE_CONNECTION, GET: LIST_CONNECTIONS } = await import("@/app/api/connections/route");
    const m = await invoiceMerchant(t.db);
    const support = await addTeamMember(t.db, m.merchantId, {
      name: "Sue",
      email: `${unique("sue")}@example.com`,
      role: "support",
      password: "support-pass-99",
    });
    if (!support.ok) throw new Error("setup");
    const token = mintSessionCredential({ merchantId: m.merchantId, userId: support.value.id, role: "support" });
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const list = await LIST_CONNECTIONS(new Request("http://test/api/connections", { headers }), { params: Promise.resolve({}) });
    expect(list.status).toBe(401);
    const create = await CREATE_CONNECTION(
      new Request("http://test/api/connections", { method: "POST", headers, body: JSON.stringify({ data: { type: "connection", attributes: {} } }) }),
      { params: Promise.resolve({}) },
    );
    expect(create.status).toBe(401);
  });
});
