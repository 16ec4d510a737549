import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { processPayoutAction } from "@/lib/actions/process-payout";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { users } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { listDashboardAttempts } from "@/lib/invoices/read/invoice-attempts";
import { logger } from "@/lib/logger";
import { addTeamMember } from "@/lib/merchants/team";
import { setUpTestDb, unique } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, invoiceMerchant, newReference } from "./helpers/invoice-fixtures";

/** The invoice page's "Process payout" (owners only) and its attempts timeline read. */
const t = setUpTestDb();

const fake = setUpFakeProvider({ replace: ["provider-a"] });
beforeEach(() => {
  fake.reset();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe("processPayoutAction", () => {
  it("refuses a read-only member, lets a support member send a created test payout once, and the page lists the attempt with its redacted log", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-a", "h2h");
    const [owner] = await t.db.select().from(users).where(eq(users.merchantId, m.merchantId));
    const support = await addTeamMember(t.db, m.merchantId, {
      name: "Sam",
      email: `${unique("sam")}@example.com`,
      role: "support",
      password: "support-pass-99",
    });
    const reader = await addTeamMember(t.db, m.merchantId, {
      name: "Rea",
      email: `${unique("rea")}@example.com`,
      role: "read_only",
      password: "reader-pass-99",
    });
    if (!support.ok || !reader.ok) throw new Error("setup: members");
    const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = { auto_process: false };
    body.data.attributes.fields = { card_number: "4242424242424242" };
    const created = await createInvoice(t.db, m.merchant, "payout", body);
    if (created.kind !== "created") throw new Error("setup: payout");
    const id = created.invoice.id;

    session.userId = reader.value.id;
    expect(await processPayoutAction({ id })).toMatchObject({ ok: false, message: "Your role (Read-only) may not process payouts." });
    expect(fake.calls).toEqual([]);

    // Support members process test payouts (lib/identity/permissions.ts), as they refund and cancel test ones.
    session.userId = support.value.id;
    expect(await processPayoutAction({ id })).toEqual({ ok: true, data: { status: "processed", resolution: "ok" } });
    session.userId = owner!.id;
    expect(await processPayoutAction({ id })).toMatchObject({ ok: false, message: expect.stringContaining("cannot be paid again") });
    expect(await processPayoutAction({ id: "cpoi_unknown" })).toMatchObject({ ok: false, message: "This payout does not exist." });
    expect(fake.calls).toHaveLength(1);

    const attempts = await listDashboardAttempts(t.db, m.merchantId, { id, currency: created.invoice.currency });
    expect(attempts).toMatchObject([
      {
        seq: 1,
        reason: "routing_order",
        status: "succeeded",
        resolution: "ok",
        processedAmount: "250.75",
        connection: { id: connection.id, label: connection.label },
      },
    ]);
    expect(attempts[0]!.exchanges).toHaveLength(1);
    // The stored card is masked: the payout goes out with the mask when no full number is in memory.
    expect(JSON.stringify(attempts)).not.toContain("4242424242424242");
  });
});
