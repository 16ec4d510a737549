import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";

/** `auth()` answers with whoever the test signs in; next-auth itself does not load outside Next. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("@/lib/auth/reissue", () => ({ reissueSession: async () => true }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { GET as EXPORT } from "@/app/api/dashboard/invoices/export/route";
import { updateMerchantTimeZoneAction } from "@/lib/actions/settings";
import { merchants } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_EXAMPLES } from "@/lib/invoices/test-fixtures";
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
  const created = await createInvoice(t.db, m.merchant, "payment", bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }));
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  createdAt = created.invoice.createdAt;
});

async function exportedTimes(): Promise<{ created: string; updated: string }> {
  session.userId = m.ownerId;
  const response = await EXPORT(new Request("http://test/api/dashboard/invoices/export", { headers: { cookie: "view_mode=test" } }), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  const [header, row] = (await response.text()).trim().split("\r\n").map((line) => line.split(","));
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
