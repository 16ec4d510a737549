import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";

/** `auth()` answers with whoever the test signs in; next-auth itself does not load outside Next. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("@/lib/auth/reissue", () => ({ reissueSession: async () => true }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { GET as EXPORT } from "@/app/api/dashboard/invoices/export/route";
import { updateMerchantTimeZoneAction, updatePersonTimeZoneAction } from "@/lib/actions/settings";
import { merchants, users } from "@/lib/db/schema";
import { findViewer } from "@/lib/identity/membership";
import { timeZoneInForce } from "@/lib/time-zones";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

/**
 * The merchant's time zone through the Settings action, and the export that writes its times in
 * it: ISO 8601 with the zone's offset, the same instant as the stored time. Bad input names the
 * field and changes nothing; only an owner may change it.
 */
const t = setUpTestDb();
let m: TeamMerchant;
let createdAt: Date;

beforeAll(async () => {
  m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
  const created = await createInvoice(
    t.db,
    m.merchant,
    "payment",
    bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }),
  );
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  createdAt = created.invoice.createdAt;
});

async function exportedTimes(): Promise<{ created: string; updated: string }> {
  session.userId = m.ownerId;
  const response = await EXPORT(new Request("http://test/api/dashboard/invoices/export", { headers: { cookie: "view_mode=test" } }), {
    params: Promise.resolve({}),
  });
  expect(response.status).toBe(200);
  const [header, row] = (await response.text())
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
  return { created: row![header!.indexOf("created_at")]!, updated: row![header!.indexOf("updated_at")]! };
}

const storedZone = async () => (await t.db.select({ zone: merchants.timeZone }).from(merchants).where(eq(merchants.id, m.merchantId)))[0]!.zone;

describe("the merchant's time zone", () => {
  it("is UTC until an owner chooses one, and the export writes its times in it with the offset", async () => {
    const before = await exportedTimes();
    expect(before.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    expect(new Date(before.created).getTime()).toBe(createdAt.getTime());

    session.userId = m.ownerId;
    const saved = await updateMerchantTimeZoneAction({ timeZone: "Asia/Kolkata" });
    expect(saved).toEqual({ ok: true, data: { timeZone: "Asia/Kolkata" } });
    const after = await exportedTimes();
    expect(after.created).toMatch(/\+05:30$/);
    expect(after.updated).toMatch(/\+05:30$/);
    expect(new Date(after.created).getTime()).toBe(createdAt.getTime());
  });

  it("refuses a zone it does not know on its field, and a support member, storing nothing", async () => {
    session.userId = m.ownerId;
    const zone = await storedZone();
    for (const timeZone of ["Mars/Olympus", "", "x".repeat(100)]) {
      const refused = await updateMerchantTimeZoneAction({ timeZone });
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(Object.keys(refused.fieldErrors)).toEqual(["timeZone"]);
    }
    session.userId = m.supportId;
    const support = await updateMerchantTimeZoneAction({ timeZone: "Europe/Berlin" }).catch((error: unknown) => error);
    expect((support as { ok?: boolean }).ok).not.toBe(true);
    expect(await storedZone()).toBe(zone);
  });
});

describe("a person's own time zone", () => {
  const inForce = async (userId: string) => timeZoneInForce((await findViewer(t.db, userId))!);
  const stored = async (userId: string) => (await t.db.select({ zone: users.timeZone }).from(users).where(eq(users.id, userId)))[0]!.zone;

  it("is the merchant's until the person chooses one, is theirs alone, and empty goes back to the merchant's", async () => {
    session.userId = m.ownerId;
    expect(await updateMerchantTimeZoneAction({ timeZone: "Europe/Berlin" })).toMatchObject({ ok: true });
    expect(await inForce(m.supportId)).toBe("Europe/Berlin");

    session.userId = m.supportId;
    expect(await updatePersonTimeZoneAction({ timeZone: " Asia/Tokyo " })).toEqual({ ok: true, data: { timeZone: "Asia/Tokyo" } });
    expect(await inForce(m.supportId)).toBe("Asia/Tokyo");
    expect(await inForce(m.ownerId)).toBe("Europe/Berlin");

    expect(await updatePersonTimeZoneAction({ timeZone: "" })).toEqual({ ok: true, data: { timeZone: "" } });
    expect(await stored(m.supportId)).toBeNull();
    expect(await inForce(m.supportId)).toBe("Europe/Berlin");
  });

  it("refuses a zone it does not know on its field, storing nothing", async () => {
    session.userId = m.supportId;
    await updatePersonTimeZoneAction({ timeZone: "America/New_York" });
    for (const timeZone of ["Mars/Olympus", "x".repeat(100)]) {
      const refused = await updatePersonTimeZoneAction({ timeZone });
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(Object.keys(refused.fieldErrors)).toEqual(["timeZone"]);
    }
    expect(await stored(m.supportId)).toBe("America/New_York");
  });
});
