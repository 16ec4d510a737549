import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";

/** `auth()` answers with whoever the test signs in; next-auth itself does not load outside Next. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("@/lib/auth/reissue", () => ({ reissueSession: async () => true }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { GET as EXPORT } from "@/app/api/dashboard/invoices/export/route";
import { GET as LIST } from "@/app/api/dashboard/invoices/route";
import { updateMerchantTimeZoneAction, updatePersonTimeZoneAction } from "@/lib/actions/settings";
import { invoices } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { addTeamMember } from "@/lib/merchants/team";
import { setUpTestDb, unique } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

/**
 * The invoice list's From and To days are days of the viewer's zone in force (the person's, else
 * the merchant's), on the list's own route and on the export, which writes its times in the same
 * zone: an invoice at 23:30 UTC is on the next day in Berlin, and on the same day in New York.
 */
const t = setUpTestDb();
let m: TeamMerchant;
const ids: Record<string, string> = {};

/** Invoices made as the API makes them, then dated: the clock time is what these tests are about. */
const AT = {
  lateUtc: "2026-03-10T23:30:00.000Z", // 00:30 on 11 March in Berlin (CET, +01:00), 19:30 on 10 March in New York (EDT, -04:00)
  lateBerlin: "2026-03-10T22:30:00.000Z", // 23:30 on 10 March in Berlin
  afterSpringForward: "2026-03-29T22:30:00.000Z", // 00:30 on 30 March in Berlin (CEST, +02:00): 29 March had 23 hours there
} as const;

beforeAll(async () => {
  m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
  for (const [name, at] of Object.entries(AT)) {
    const created = await createInvoice(
      t.db,
      m.merchant,
      "payment",
      bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }),
    );
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    await t.db
      .update(invoices)
      .set({ createdAt: new Date(at), updatedAt: new Date(at) })
      .where(eq(invoices.id, created.invoice.id));
    ids[name] = created.invoice.id;
  }
  session.userId = m.ownerId;
  expect(await updateMerchantTimeZoneAction({ timeZone: "Europe/Berlin" })).toMatchObject({ ok: true });
});

const request = (path: string, query: Record<string, string>) =>
  new Request(`http://test${path}?${new URLSearchParams(query)}`, { headers: { cookie: "view_mode=test" } });

/** The names of the invoices the list shows for these days, as the signed-in person. */
async function listed(userId: string, query: Record<string, string>): Promise<string[]> {
  session.userId = userId;
  const response = await LIST(request("/api/dashboard/invoices", query), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { invoices: { id: string }[] }; meta: { ignored: string[] } };
  expect(body.meta.ignored).toEqual([]);
  return Object.keys(ids).filter((name) => body.data.invoices.some((invoice) => invoice.id === ids[name]));
}

describe("the invoice list's days", () => {
  it("are the merchant's zone's days: 23:30 UTC is the next day in Berlin", async () => {
    expect(await listed(m.ownerId, { from: "2026-03-11", to: "2026-03-11" })).toEqual(["lateUtc"]);
    expect(await listed(m.ownerId, { from: "2026-03-10", to: "2026-03-10" })).toEqual(["lateBerlin"]);
    expect(await listed(m.ownerId, { to: "2026-03-10" })).toEqual(["lateBerlin"]);
    expect(await listed(m.ownerId, { from: "2026-03-11" })).toEqual(["lateUtc", "afterSpringForward"]);
  });

  it("follow the clocks: the day after Berlin's spring change starts at 22:00 UTC", async () => {
    expect(await listed(m.ownerId, { from: "2026-03-29", to: "2026-03-29" })).toEqual([]);
    expect(await listed(m.ownerId, { from: "2026-03-30", to: "2026-03-30" })).toEqual(["afterSpringForward"]);
  });

  it("are the person's own zone's days when they chose one, and the merchant's again when they clear it", async () => {
    session.userId = m.supportId;
    expect(await updatePersonTimeZoneAction({ timeZone: "America/New_York" })).toMatchObject({ ok: true });
    expect(await listed(m.supportId, { from: "2026-03-10", to: "2026-03-10" })).toEqual(["lateUtc", "lateBerlin"]);
    // The owner's view stays Berlin's.
    expect(await listed(m.ownerId, { from: "2026-03-10", to: "2026-03-10" })).toEqual(["lateBerlin"]);
    session.userId = m.supportId;
    expect(await updatePersonTimeZoneAction({ timeZone: "" })).toMatchObject({ ok: true });
    expect(await listed(m.supportId, { from: "2026-03-10", to: "2026-03-10" })).toEqual(["lateBerlin"]);
  });

  it("are UTC days where UTC is the zone in force", async () => {
    session.userId = m.supportId;
    expect(await updatePersonTimeZoneAction({ timeZone: "UTC" })).toMatchObject({ ok: true });
    expect(await listed(m.supportId, { from: "2026-03-10", to: "2026-03-10" })).toEqual(["lateUtc", "lateBerlin"]);
    expect(await updatePersonTimeZoneAction({ timeZone: "" })).toMatchObject({ ok: true });
  });
});

describe("the export", () => {
  it("takes the same days and writes the times in the same zone, with its offset", async () => {
    session.userId = m.ownerId;
    const response = await EXPORT(request("/api/dashboard/invoices/export", { from: "2026-03-11", to: "2026-03-11" }), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Total-Count")).toBe("1");
    const [header, ...rows] = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n")
      .map((line) => line.split(","));
    expect(rows).toHaveLength(1);
    expect(rows[0]![header!.indexOf("id")]).toBe(ids.lateUtc);
    expect(rows[0]![header!.indexOf("created_at")]).toBe("2026-03-11T00:30:00.000+01:00");
  });

  it("writes a person's own zone when they chose one", async () => {
    // Exports are for owners and finance (the permission table): a finance member with a zone of their own.
    const finance = await addTeamMember(t.db, m.merchantId, {
      name: "Fiona Finance",
      email: `${unique("finance")}@example.com`,
      role: "finance",
      password: "finance-pass-1234",
    });
    if (!finance.ok) throw new Error("setup: finance member");
    session.userId = finance.value.id;
    expect(await updatePersonTimeZoneAction({ timeZone: "America/New_York" })).toMatchObject({ ok: true });
    const response = await EXPORT(request("/api/dashboard/invoices/export", { from: "2026-03-10", to: "2026-03-10" }), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const [header, ...rows] = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n")
      .map((line) => line.split(","));
    const created = Object.fromEntries(rows.map((row) => [row[header!.indexOf("id")], row[header!.indexOf("created_at")]]));
    expect(created).toEqual({ [ids.lateUtc!]: "2026-03-10T19:30:00.000-04:00", [ids.lateBerlin!]: "2026-03-10T18:30:00.000-04:00" });
    expect(await updatePersonTimeZoneAction({ timeZone: "" })).toMatchObject({ ok: true });
  });
});
