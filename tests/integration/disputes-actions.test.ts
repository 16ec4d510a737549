import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null), signIn: async () => undefined }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { POST as UPLOAD } from "@/app/api/dashboard/disputes/[id]/files/route";
import { GET as DOWNLOAD } from "@/app/api/dashboard/files/[id]/route";
import { acceptDisputeAction, saveDisputeEvidenceAction, submitDisputeAction } from "@/lib/actions/disputes";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { auditLog, disputes, invoiceAttempts } from "@/lib/db/schema";
import { applyDisputeReport } from "@/lib/disputes/apply-report";
import { EVIDENCE_TEXT_MAX } from "@/lib/disputes/contract";
import type { Role } from "@/lib/identity/permissions";
import { logger } from "@/lib/logger";
import { setUpTestDb, unique } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { seedTenant, snapshotTenant, type TenantWorld } from "./helpers/tenant-world";

/**
 * The dispute page's actions (lib/actions/disputes.ts) and its upload route, as a signed-in member
 * calls them: who may respond in which mode (owner and finance both, support test only, developer
 * and read-only neither), another merchant's dispute not found, bad input named by its field, and
 * nothing stored or sent on a refusal; Save draft keeps the text, Submit and Accept reach the
 * provider once and are audited.
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"] });

let A: TenantWorld;
let B: TenantWorld;

beforeAll(async () => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
  A = await seedTenant(t.db, "A");
  B = await seedTenant(t.db, "B");
  vi.restoreAllMocks();
});
beforeEach(() => {
  fake.reset();
  resetRateLimits();
  session.userId = undefined;
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const DAY = 24 * 60 * 60_000;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/** A new open dispute of merchant A's paid payment, as its provider notified it; `live` makes it a live one. */
async function openDispute(options: { live?: boolean } = {}): Promise<string> {
  const [attempt] = await t.db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, A.paymentId));
  const report = {
    disputeReference: unique("dispute"),
    paymentKey: attempt!.idempotencyKey,
    amountMinor: 100n,
    currency: "UAH",
    reason: "not_received" as const,
    providerReason: "13.1",
    status: "needs_response" as const,
    evidenceDueBy: new Date(Date.now() + 7 * DAY),
  };
  const opened = await applyDisputeReport(t.db, { id: A.a.id, merchantId: A.merchantId, mode: "test" }, report, "test");
  if (opened.kind !== "created") throw new Error(`setup: ${opened.kind}`);
  // The fake provider knows it too: what it answers Submit and Accept with.
  fake.disputes.set(report.disputeReference, report);
  // A live dispute is the same row in live mode: what the checks read (no provider is reached for a refusal).
  if (options.live) await t.db.update(disputes).set({ testMode: false }).where(eq(disputes.id, opened.dispute.id));
  return opened.dispute.id;
}

const signIn = (role: Role) => (session.userId = A.members[role]);
const row = async (id: string) => (await t.db.select().from(disputes).where(eq(disputes.id, id)))[0]!;
const providerCalls = () => fake.calls.filter((call) => call.op.startsWith("dispute-"));

function upload(id: string, file: Blob, name = "receipt.png") {
  const form = new FormData();
  form.set("file", file, name);
  return UPLOAD(new Request(`http://test/api/dashboard/disputes/${id}/files`, { method: "POST", body: form }), { params: Promise.resolve({ id }) });
}

describe("who may respond, in which mode", () => {
  const cases: [Role, "test" | "live", boolean][] = [
    ["owner", "test", true],
    ["owner", "live", true],
    ["finance", "test", true],
    ["finance", "live", true],
    ["support", "test", true],
    ["support", "live", false],
    ["developer", "test", false],
    ["developer", "live", false],
    ["read_only", "test", false],
    ["read_only", "live", false],
  ];
  it.each(cases)("%s on a %s dispute: allowed %s (Save draft, then Accept)", async (role, mode, allowed) => {
    const id = await openDispute({ live: mode === "live" });
    signIn(role);
    const before = await snapshotTenant(t.db, A.merchantId);
    const saved = await saveDisputeEvidenceAction({ disputeId: id, explanation: `Written by ${role}` });
    if (!allowed) {
      expect(saved).toMatchObject({ ok: false, message: expect.stringMatching(/^Your role \(.+\) may not respond to (live |test )?disputes/) });
      expect(await acceptDisputeAction({ disputeId: id })).toMatchObject({ ok: false });
      expect(await submitDisputeAction({ disputeId: id })).toMatchObject({ ok: false });
      expect((await upload(id, new Blob([PNG]))).status).toBe(403);
      expect(await snapshotTenant(t.db, A.merchantId)).toEqual(before);
      expect(providerCalls()).toEqual([]);
      return;
    }
    expect(saved).toEqual({ ok: true, data: { id, status: "needs_response", submitted: false, accepted: false } });
    expect((await row(id)).evidence).toEqual({ explanation: `Written by ${role}` });
    if (mode === "test") {
      expect(await acceptDisputeAction({ disputeId: id })).toMatchObject({ ok: true, data: { id, accepted: true } });
      expect(providerCalls().map((call) => call.op)).toEqual(["dispute-accept"]);
    }
  });
});

describe("another merchant's dispute", () => {
  it("is not found to every action and the upload; nothing of B changes and no provider is called", async () => {
    signIn("owner");
    const before = await snapshotTenant(t.db, B.merchantId);
    for (const result of [
      await saveDisputeEvidenceAction({ disputeId: B.disputeId, explanation: "taken over" }),
      await submitDisputeAction({ disputeId: B.disputeId }),
      await acceptDisputeAction({ disputeId: B.disputeId }),
    ])
      expect(result).toEqual({ ok: false, fieldErrors: {}, message: "This dispute does not exist." });
    expect((await upload(B.disputeId, new Blob([PNG]))).status).toBe(404);
    expect((await DOWNLOAD(new Request("http://test/f"), { params: Promise.resolve({ id: B.fileId }) })).status).toBe(404);
    expect(await snapshotTenant(t.db, B.merchantId)).toEqual(before);
    expect(providerCalls()).toEqual([]);
  });

  it("signed out, every action is refused", async () => {
    const id = await openDispute();
    expect(await saveDisputeEvidenceAction({ disputeId: id, explanation: "x" })).toMatchObject({ ok: false, message: expect.stringContaining("Sign in") });
    expect((await upload(id, new Blob([PNG]))).status).toBe(401);
  });
});

describe("bad input", () => {
  it("names the field: text too long, not text, an unknown field; nothing is stored", async () => {
    const id = await openDispute();
    signIn("owner");
    const before = await snapshotTenant(t.db, A.merchantId);
    const long = await saveDisputeEvidenceAction({ disputeId: id, explanation: "x".repeat(EVIDENCE_TEXT_MAX + 1) });
    expect(long).toMatchObject({ ok: false, fieldErrors: { explanation: `explanation must be at most ${EVIDENCE_TEXT_MAX} characters` } });
    const notText = await saveDisputeEvidenceAction({ disputeId: id, refund_policy: 42 });
    expect(notText).toMatchObject({ ok: false, fieldErrors: { refund_policy: "refund_policy must be text" } });
    expect(await saveDisputeEvidenceAction({ disputeId: id, file_ids: ["file_x"] })).toMatchObject({ ok: false });
    expect(await submitDisputeAction({ disputeId: id, extra: 1 })).toMatchObject({ ok: false });
    expect(await submitDisputeAction(null)).toMatchObject({ ok: false });
    expect(await snapshotTenant(t.db, A.merchantId)).toEqual(before);
  });

  it("an upload that is not a PDF, PNG or JPEG is refused on the file field and not kept", async () => {
    const id = await openDispute();
    signIn("owner");
    const before = await snapshotTenant(t.db, A.merchantId);
    const html = await upload(id, new Blob(["<html>evidence</html>"]), "evidence.pdf");
    expect(html.status).toBe(415);
    expect((await html.json()).errors[0].source).toEqual({ pointer: "/data/attributes/file" });
    const missing = await UPLOAD(new Request(`http://test/x`, { method: "POST", body: new FormData() }), { params: Promise.resolve({ id }) });
    expect(missing.status).toBe(422);
    expect(await snapshotTenant(t.db, A.merchantId)).toEqual(before);
  });

  it("Submit without evidence is refused and calls no provider", async () => {
    const id = await openDispute();
    signIn("owner");
    expect(await submitDisputeAction({ disputeId: id })).toMatchObject({ ok: false, message: expect.stringContaining("Save evidence first") });
    expect(providerCalls()).toEqual([]);
    expect((await row(id)).submittedAt).toBeNull();
  });
});

describe("the evidence, end to end", () => {
  it("a file uploaded goes onto the draft and stays there when the text is saved; Submit sends both once and is audited; the form then refuses", async () => {
    const id = await openDispute();
    signIn("finance");
    const uploaded = await upload(id, new Blob([PNG], { type: "image/png" }), "receipt.png");
    expect(uploaded.status).toBe(201);
    const fileId = (await uploaded.json()).data.id as string;
    expect((await row(id)).evidence).toEqual({ file_ids: [fileId] });
    const download = await DOWNLOAD(new Request("http://test/f"), { params: Promise.resolve({ id: fileId }) });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);

    expect(await saveDisputeEvidenceAction({ disputeId: id, shipping_tracking: "DHL 0034", explanation: "winning_evidence" })).toMatchObject({ ok: true });
    expect((await row(id)).evidence).toEqual({ shipping_tracking: "DHL 0034", explanation: "winning_evidence", file_ids: [fileId] });

    expect(await submitDisputeAction({ disputeId: id })).toMatchObject({ ok: true, data: { id, status: "under_review", submitted: true } });
    expect(await submitDisputeAction({ disputeId: id })).toMatchObject({ ok: true, data: { submitted: true } });
    expect(providerCalls().map((call) => call.op)).toEqual(["dispute-submit"]);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, A.merchantId), eq(auditLog.action, "dispute.evidence_submitted")));
    expect(audit.map((entry) => entry.summary)).toContainEqual(expect.stringContaining(id));

    expect(await saveDisputeEvidenceAction({ disputeId: id, explanation: "changed" })).toMatchObject({ ok: false });
    expect((await upload(id, new Blob([PNG]))).status).toBe(409);
    expect((await row(id)).evidence.explanation).toBe("winning_evidence");
  });
});
