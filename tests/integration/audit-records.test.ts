import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import * as auditExportRoute from "@/app/api/dashboard/audit-log/export/route";
import * as invoiceExportRoute from "@/app/api/dashboard/invoices/export/route";
import { cancelPayoutAction } from "@/lib/actions/cancel-payout";
import { processPayoutAction } from "@/lib/actions/process-payout";
import { changeRoleAction } from "@/lib/actions/team";
import { listAuditLog } from "@/lib/audit/read";
import { recordAudit } from "@/lib/audit/record";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { auditLog, users } from "@/lib/db/schema";
import { findViewer } from "@/lib/identity/membership";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { acceptInvite, createInvite } from "@/lib/merchants/invites";
import { updateMerchantTimeZone } from "@/lib/merchants/settings";
import { addTeamMember } from "@/lib/merchants/team";
import { timeZoneInForce } from "@/lib/time-zones";
import { setUpTestDb, unique } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, invoiceMerchant, newReference } from "./helpers/invoice-fixtures";

/**
 * What the audit log holds beyond configuration changes: payouts processed and cancelled from the
 * dashboard, a member joining, role changes and exports, each as the Audit log page and its CSV
 * show them. Sign-ins: audit-sign-in.test.ts (next-auth's own routes).
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"] });
beforeEach(() => {
  fake.reset();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function merchantWithOwner() {
  const m = await invoiceMerchant(t.db);
  const [owner] = await t.db.select().from(users).where(eq(users.merchantId, m.merchantId));
  return { ...m, owner: owner!, viewer: (await findViewer(t.db, owner!.id))! };
}

const entries = (merchantId: string, action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.merchantId, merchantId), eq(auditLog.action, action)));

async function waitingPayout(m: Awaited<ReturnType<typeof merchantWithOwner>>) {
  const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.options = { auto_process: false };
  body.data.attributes.fields = { card_number: "4242424242424242" };
  const created = await createInvoice(t.db, m.merchant, "payout", body);
  if (created.kind !== "created") throw new Error("setup: payout");
  return created.invoice;
}

describe("the audit log records", () => {
  it("a payout processed and one cancelled from the dashboard, by the person, with amount and outcome", async () => {
    const m = await merchantWithOwner();
    await connect(t.db, m.merchantId, "provider-a", "h2h");
    const processed = await waitingPayout(m);
    const canceled = await waitingPayout(m);
    session.userId = m.owner.id;
    expect(await processPayoutAction({ id: processed.id })).toMatchObject({ ok: true });
    session.userId = m.owner.id;
    expect(await cancelPayoutAction({ id: canceled.id })).toMatchObject({ ok: true });
    const label = `${m.owner.name} <${m.owner.email}>`;
    expect(await entries(m.merchantId, "payout.processed")).toMatchObject([
      {
        actorType: "user",
        actorId: m.owner.id,
        actorLabel: label,
        targetType: "invoice",
        targetId: processed.id,
        summary: `${processed.amount} ${processed.currency} (test): processed`,
      },
    ]);
    expect(await entries(m.merchantId, "payout.canceled")).toMatchObject([
      { actorId: m.owner.id, targetType: "invoice", targetId: canceled.id, summary: `${canceled.amount} ${canceled.currency} (test): canceled` },
    ]);
    // A refused one is no entry.
    session.userId = m.owner.id;
    expect(await cancelPayoutAction({ id: canceled.id })).toMatchObject({ ok: false });
    expect(await entries(m.merchantId, "payout.canceled")).toHaveLength(1);
  });

  it("a member joining through an invitation, under their own name, and a role change naming the role before", async () => {
    const m = await merchantWithOwner();
    const email = `${unique("joiner")}@example.com`;
    const invited = await createInvite(t.db, m.viewer, { name: "Dev Joiner", email, role: "developer" });
    if (!invited.ok) throw new Error("setup: invite");
    const joined = await acceptInvite(t.db, { token: invited.value.token, password: "joiner-pass-99" });
    if (!joined.ok) throw new Error("setup: accept");
    expect(await entries(m.merchantId, "team.joined")).toMatchObject([
      {
        actorType: "user",
        actorId: joined.value.userId,
        actorLabel: `Dev Joiner <${email}>`,
        targetType: "user",
        targetId: joined.value.userId,
        summary: `Dev Joiner <${email}> as developer`,
      },
    ]);
    session.userId = m.owner.id;
    expect(await changeRoleAction({ userId: joined.value.userId, role: "finance" })).toMatchObject({ ok: true });
    expect(await entries(m.merchantId, "team.role_changed")).toMatchObject([
      { actorId: m.owner.id, targetId: joined.value.userId, summary: `${email} is now finance (was developer)`, changes: ["role"] },
    ]);
  });

  it("an invoice export from the dashboard, with what it held; a refused one is no entry", async () => {
    const m = await merchantWithOwner();
    const support = await addTeamMember(t.db, m.merchantId, {
      name: "Sam",
      email: `${unique("sam")}@example.com`,
      role: "support",
      password: "support-pass-99",
    });
    if (!support.ok) throw new Error("setup: support");
    session.userId = support.value.id;
    expect((await invoiceExportRoute.GET(new Request("http://test/api/dashboard/invoices/export"), { params: Promise.resolve({}) })).status).toBe(403);
    expect(await entries(m.merchantId, "export.invoices")).toEqual([]);
    session.userId = m.owner.id;
    const answer = await invoiceExportRoute.GET(new Request("http://test/api/dashboard/invoices/export?status=processed"), { params: Promise.resolve({}) });
    expect(answer.status).toBe(200);
    await answer.text();
    expect(await entries(m.merchantId, "export.invoices")).toMatchObject([{ actorId: m.owner.id, summary: "0 test invoices, filtered by status" }]);
  });
});

describe("the audit log's CSV export", () => {
  async function exportCsv(query: string) {
    const answer = await auditExportRoute.GET(new Request(`http://test/api/dashboard/audit-log/export${query}`), { params: Promise.resolve({}) });
    return { status: answer.status, headers: answer.headers, body: new Uint8Array(await answer.arrayBuffer()) };
  }

  it("holds the filtered entries, newest first, escaped as the invoice export is, times with the merchant's offset, and is recorded itself", async () => {
    const m = await merchantWithOwner();
    await updateMerchantTimeZone(t.db, m.merchantId, { timeZone: "Asia/Kolkata" });
    const actor = { type: "user" as const, id: m.owner.id, label: `${m.owner.name} <${m.owner.email}>` };
    // A summary a spreadsheet would take for a formula, and a name with a comma, a quote and an umlaut.
    await recordAudit(t.db, { merchantId: m.merchantId, actor, action: "team.invited", summary: '=HYPERLINK("http://x") "Müller, Jörg"' });
    await recordAudit(t.db, { merchantId: m.merchantId, actor: { label: "System" }, action: "settings.updated", summary: "by the service" });
    await recordAudit(t.db, { merchantId: m.merchantId, actor, action: "team.invite_revoked", summary: "second" });
    session.userId = m.owner.id;

    const filtered = await exportCsv(`?actor=${m.owner.id}&group=team`);
    expect(filtered.status).toBe(200);
    expect(filtered.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(filtered.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(filtered.headers.get("x-total-count")).toBe("2");
    expect([...filtered.body.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder()
      .decode(filtered.body)
      .replace(/^\uFEFF/, "")
      .split("\r\n");
    expect(lines[0]).toBe("time,who_type,who_id,who,action,what,summary,changed,target_type,target_id");
    expect(lines).toHaveLength(4); // header, two entries, and the empty string after the last CRLF
    expect(lines[1]).toContain(",team.invite_revoked,Invitation revoked,second,");
    expect(lines[2]).toContain(`,team.invited,Member invited,"'=HYPERLINK(""http://x"") ""Müller, Jörg""",`);
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+05:30,user,/);

    const byAction = new TextDecoder().decode((await exportCsv("?action=settings.updated")).body).split("\r\n");
    expect(byAction.slice(1, -1)).toHaveLength(1);
    expect(byAction[1]).toContain(",system,,System,settings.updated,Settings updated,by the service,");

    // Each export is an entry of its own, naming the filter it was made with.
    expect(await entries(m.merchantId, "export.audit_log")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actorId: m.owner.id, summary: `filtered by group=team, actor=${m.owner.id}` }),
        expect.objectContaining({ summary: "filtered by action=settings.updated" }),
      ]),
    );
  });

  it("reads From and To as days of the time zone in force: 23:30 UTC is the next day in Berlin, in the page's list and the CSV", async () => {
    const m = await merchantWithOwner();
    await updateMerchantTimeZone(t.db, m.merchantId, { timeZone: "Europe/Berlin" });
    await recordAudit(t.db, { merchantId: m.merchantId, actor: { label: "System" }, action: "settings.updated", summary: "late in the UTC day" });
    // 2026-03-09 23:30 UTC is 2026-03-10 00:30 in Berlin (UTC+1 in March before the change).
    await t.db
      .update(auditLog)
      .set({ createdAt: new Date("2026-03-09T23:30:00Z") })
      .where(and(eq(auditLog.merchantId, m.merchantId), eq(auditLog.action, "settings.updated")));
    session.userId = m.owner.id;
    const viewer = (await findViewer(t.db, m.owner.id))!;
    const zone = timeZoneInForce(viewer);
    expect(zone).toBe("Europe/Berlin");
    const onDay = async (day: string) =>
      (await listAuditLog(t.db, m.merchantId, { action: "settings.updated", from: day, to: day }, zone)).entries.map((e) => e.summary);
    expect(await onDay("2026-03-10")).toEqual(["late in the UTC day"]);
    expect(await onDay("2026-03-09")).toEqual([]);
    const csv = new TextDecoder().decode((await exportCsv("?action=settings.updated&from=2026-03-10&to=2026-03-10")).body).split("\r\n");
    expect(csv.slice(1, -1)).toHaveLength(1);
    expect(csv[1]).toMatch(/^2026-03-10T00:30:00\.000\+01:00,/);
    expect((await exportCsv("?action=settings.updated&from=2026-03-09&to=2026-03-09")).headers.get("x-total-count")).toBe("0");
  });

  it("refuses a filter value the page would ignore (400 naming it) and a role without audit.read (403), recording neither", async () => {
    const m = await merchantWithOwner();
    session.userId = m.owner.id;
    const bad = await exportCsv("?action=nothing.such");
    expect(bad.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(bad.body)).errors[0]).toMatchObject({ source: { parameter: "action" } });
    const developer = await addTeamMember(t.db, m.merchantId, {
      name: "Dev",
      email: `${unique("dev")}@example.com`,
      role: "developer",
      password: "dev-pass-9999",
    });
    if (!developer.ok) throw new Error("setup: developer");
    session.userId = developer.value.id;
    expect((await exportCsv("")).status).toBe(403);
    const finance = await addTeamMember(t.db, m.merchantId, {
      name: "Fin",
      email: `${unique("fin")}@example.com`,
      role: "finance",
      password: "fin-pass-99999",
    });
    if (!finance.ok) throw new Error("setup: finance");
    session.userId = finance.value.id;
    expect((await exportCsv("")).status).toBe(200);
    expect(await entries(m.merchantId, "export.audit_log")).toMatchObject([{ actorId: finance.value.id, summary: "everything" }]);
  });
});
