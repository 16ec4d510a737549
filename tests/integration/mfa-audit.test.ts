import { beforeAll, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null), signIn: async () => undefined }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { and, eq } from "drizzle-orm";
import { generate } from "otplib";
import AuditLogPage from "@/app/(dashboard)/audit-log/page";
import { renameBusinessAction } from "@/lib/actions/account";
import { createApiKeyAction, revokeApiKeyAction } from "@/lib/actions/api-keys";
import { createConnectionAction, deleteConnectionAction, updateConnectionAction } from "@/lib/actions/connections";
import {
  confirmMfaEnrolmentAction,
  disableMfaAction,
  regenerateRecoveryCodesAction,
  setRequireOwnerMfaAction,
  startMfaEnrolmentAction,
} from "@/lib/actions/mfa";
import { refundInvoiceAction } from "@/lib/actions/refunds";
import { saveRoutingOrderAction } from "@/lib/actions/routing";
import { updateInvoiceLifetimeAction, updateMerchantSettingsAction } from "@/lib/actions/settings";
import { changeRoleAction, inviteMemberAction, removeMemberAction } from "@/lib/actions/team";
import { createWebhookEndpointAction, deleteWebhookEndpointAction, rotateWebhookSecretAction, updateWebhookEndpointAction } from "@/lib/actions/webhooks";
import type { ActionResult } from "@/lib/actions/result";
import { readAuditFilter } from "@/lib/audit/filters";
import { listAuditLog } from "@/lib/audit/read";
import { MFA_ENROLMENT_REQUIRED, requirePageViewer } from "@/lib/auth/viewer";
import { auditLog, users } from "@/lib/db/schema";
import { addTeamMember } from "@/lib/merchants/team";
import { resetTwoFactorCommand } from "@/lib/admin/commands";
import { currentSessionVersion } from "@/lib/identity/sessions";
import { createAttributes } from "./helpers/connection-fixtures";
import { setUpTestDb, unique } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, teamMerchant } from "./helpers/invoice-fixtures";
import { seedTenant, type TenantWorld } from "./helpers/tenant-world";

/**
 * Two-factor enrolment and the owner requirement through the server actions the Settings pages
 * call, and the audit log every family of change writes to. Codes come from otplib as an
 * authenticator app makes them.
 */
const t = setUpTestDb();
// Provider A answers in process, so the audited merchant has a paid payment to refund.
setUpFakeProvider({ replace: ["provider-a"] });
const now = () => Math.floor(Date.now() / 1000);
const code = (secret: string, offset = 0) => generate({ secret, epoch: now() + offset });

function data<T>(result: ActionResult<T>): T {
  if (!result.ok) throw new Error(`expected ok: ${JSON.stringify(result)}`);
  return result.data;
}

/** The password of the owners the fixtures make (tests/integration/helpers/connection-fixtures.ts). */
const OWNER_PASSWORD = "correct-horse-42";

/** Enrols whoever is signed in; answers the secret and the recovery codes. */
async function enrol(password = OWNER_PASSWORD): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = data(await startMfaEnrolmentAction({ password }));
  const { recoveryCodes } = data(await confirmMfaEnrolmentAction({ password, code: await code(secret, -30) }));
  return { secret, recoveryCodes };
}

describe("two-factor enrolment (Settings → Two-factor authentication)", () => {
  it("shows a QR code and the secret once, refuses a wrong code, turns on with the app's code and gives 10 recovery codes; the secret is stored sealed", async () => {
    const m = await teamMerchant(t.db);
    session.userId = m.supportId;
    const password = "support-pass-99";
    const started = data(await startMfaEnrolmentAction({ password }));
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.uri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}/);
    expect(started.qrSvg).toMatch(/^<svg[\s\S]+<\/svg>\s*$/);
    expect(started.secretGroups.join("")).toBe(started.secret);
    const right = await code(started.secret);
    const wrong = right === "123456" ? "654321" : "123456";
    expect(await confirmMfaEnrolmentAction({ password, code: wrong })).toMatchObject({
      ok: false,
      fieldErrors: { code: expect.stringContaining("not right") },
    });
    expect(await confirmMfaEnrolmentAction({ password, code: "12345" })).toMatchObject({ ok: false, fieldErrors: { code: "The code is 6 digits" } });
    const [before] = await t.db.select().from(users).where(eq(users.id, m.supportId));
    expect(before!.totpEnabledAt).toBeNull();
    const confirmed = data(await confirmMfaEnrolmentAction({ password, code: right }));
    expect(confirmed.recoveryCodes).toHaveLength(10);
    for (const recovery of confirmed.recoveryCodes) expect(recovery).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const [after] = await t.db.select().from(users).where(eq(users.id, m.supportId));
    expect(after!.totpEnabledAt).toBeInstanceOf(Date);
    expect(after!.totpSecret).toMatch(/^v2\./);
    expect(after!.totpSecret).not.toContain(started.secret);
    expect(after!.totpPendingSecret).toBeNull();
    // Once on, nothing hands the secret out again: starting over is refused.
    expect(await startMfaEnrolmentAction({ password })).toMatchObject({ ok: false, message: expect.stringContaining("already on") });
    // New recovery codes need the app's code; the old ones stop working.
    expect(await regenerateRecoveryCodesAction({ code: right })).toMatchObject({ ok: false, fieldErrors: { code: expect.stringContaining("not right") } });
    const regenerated = data(await regenerateRecoveryCodesAction({ code: await code(started.secret, 30) }));
    expect(regenerated.recoveryCodes).toHaveLength(10);
    expect(regenerated.recoveryCodes).not.toContain(confirmed.recoveryCodes[0]);
    // Off: the password and a code; an old recovery code no longer proves anything, a new one does.
    expect(await disableMfaAction({ password, code: confirmed.recoveryCodes[0] })).toMatchObject({ ok: false, fieldErrors: { code: expect.any(String) } });
    expect(await disableMfaAction({ password: "wrong-pass-000", code: regenerated.recoveryCodes[0] })).toMatchObject({
      ok: false,
      fieldErrors: { password: "The current password is not correct" },
    });
    expect(await disableMfaAction({})).toMatchObject({
      ok: false,
      fieldErrors: { password: "Current password is required", code: "Enter the 6-digit code from your app or a recovery code" },
    });
    expect(await disableMfaAction({ password, code: regenerated.recoveryCodes[0] })).toEqual({ ok: true, data: undefined });
    const [off] = await t.db.select().from(users).where(eq(users.id, m.supportId));
    expect(off).toMatchObject({ totpSecret: null, totpEnabledAt: null });
  });
});

describe("npm run admin -- reset-two-factor", () => {
  it("turns two-factor off for someone locked out, ends their sessions and says so in the audit log", async () => {
    const m = await teamMerchant(t.db);
    session.userId = m.ownerId;
    await enrol();
    const [owner] = await t.db.select().from(users).where(eq(users.id, m.ownerId));
    const before = await currentSessionVersion(t.db, m.ownerId);
    expect(await resetTwoFactorCommand(t.db, { email: owner!.email.toUpperCase() })).toEqual({ userId: m.ownerId, twoFactor: "off", wasEnabled: true });
    const [after] = await t.db.select().from(users).where(eq(users.id, m.ownerId));
    expect(after).toMatchObject({ totpSecret: null, totpEnabledAt: null, sessionVersion: before! + 1 });
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, m.merchantId), eq(auditLog.action, "mfa.disabled")));
    expect(row).toMatchObject({ actorType: "system", actorLabel: "Operator (npm run admin)", targetId: m.ownerId });
    await expect(resetTwoFactorCommand(t.db, { email: "nobody-here@example.com" })).rejects.toThrow("No one signs in with nobody-here@example.com");
    await expect(resetTwoFactorCommand(t.db, {})).rejects.toThrow("needs --email");
  });
});

describe("Require two-factor authentication for owners", () => {
  it("an owner must enrol before turning it on; then an un-enrolled owner can use no page or action but enrolment, support members are not affected", async () => {
    const m = await teamMerchant(t.db);
    const other = await addTeamMember(t.db, m.merchantId, {
      name: "Otto Owner",
      email: `${unique("otto")}@example.com`,
      role: "owner",
      password: "otto-pass-1234",
    });
    if (!other.ok) throw new Error("setup");
    session.userId = m.ownerId;
    expect(await setRequireOwnerMfaAction({ requireOwnerMfa: true })).toMatchObject({
      ok: false,
      fieldErrors: { requireOwnerMfa: expect.stringContaining("for yourself first") },
    });
    const mine = await enrol();
    expect(data(await setRequireOwnerMfaAction({ requireOwnerMfa: true }))).toEqual({ requireOwnerMfa: true });
    // The enrolled owner cannot turn their own off while it is required.
    expect(await disableMfaAction({ password: OWNER_PASSWORD, code: await code(mine.secret) })).toMatchObject({
      ok: false,
      message: expect.stringContaining("requires two-factor"),
    });

    session.userId = other.value.id;
    expect(await createApiKeyAction({ name: "sneaky", mode: "test", scope: "full" })).toEqual({ ok: false, fieldErrors: {}, message: MFA_ENROLMENT_REQUIRED });
    expect(await setRequireOwnerMfaAction({ requireOwnerMfa: false })).toEqual({ ok: false, fieldErrors: {}, message: MFA_ENROLMENT_REQUIRED });
    expect(await createConnectionAction(createAttributes("provider-b", "h2h"))).toMatchObject({ ok: false, message: MFA_ENROLMENT_REQUIRED });
    await expect(requirePageViewer()).rejects.toMatchObject({ digest: expect.stringContaining("/settings/two-factor") });
    await expect(requirePageViewer(undefined, { allowWithoutMfa: true })).resolves.toMatchObject({ user: { id: other.value.id } });

    session.userId = m.supportId;
    expect((await requirePageViewer()).user.id).toBe(m.supportId);

    session.userId = other.value.id;
    await enrol("otto-pass-1234");
    expect((await createApiKeyAction({ name: "now allowed", mode: "test", scope: "full" })).ok).toBe(true);
    await expect(requirePageViewer()).resolves.toMatchObject({ user: { id: other.value.id } });
  });
});

describe("audit log", () => {
  let w: TenantWorld;
  let other: TenantWorld;
  let secondA = "";
  beforeAll(async () => {
    w = await seedTenant(t.db, "Audited");
    other = await seedTenant(t.db, "Other");
    secondA = (await connect(t.db, w.merchantId, "provider-a", "h2h")).id;
  });

  const SECRET = `sk_${unique("secret")}`;
  type Step = { action: string; run: () => Promise<unknown>; target?: string };
  const steps = (): Step[] => {
    let connectionId = "";
    let keyId = "";
    let inviteeId = "";
    let endpointId = "";
    const endpoint = { url: "http://127.0.0.1:9/hooks?token=url-secret-4711", description: "audited", enabled: true, allEvents: true, eventTypes: [] };
    return [
      {
        action: "connection.created",
        run: async () => {
          const attributes = createAttributes("provider-b", "h2h", "test", { label: unique("Audited B") });
          attributes.credentials = { ...attributes.credentials, secret_key: SECRET };
          connectionId = data(await createConnectionAction(attributes)).id;
        },
      },
      { action: "connection.updated", run: async () => data(await updateConnectionAction({ id: connectionId, label: unique("Renamed B") })) },
      {
        action: "routing.saved",
        run: async () => data(await saveRoutingOrderAction({ service: w.a.services[0]!, mode: "test", connectionIds: [secondA, w.a.id] })).id,
      },
      { action: "connection.deleted", run: async () => data(await deleteConnectionAction({ id: connectionId })) },
      {
        action: "api_key.created",
        run: async () => {
          const created = data(await createApiKeyAction({ name: "audited key", mode: "test", scope: "full" }));
          keyId = created.id;
          return created;
        },
      },
      { action: "api_key.revoked", run: async () => data(await revokeApiKeyAction({ id: keyId })) },
      { action: "team.invited", run: async () => data(await inviteMemberAction({ name: "Ivy", email: `${unique("ivy")}@example.com`, role: "support" })) },
      {
        action: "team.role_changed",
        run: async () => {
          const added = await addTeamMember(t.db, w.merchantId, {
            name: "Rita",
            email: `${unique("rita")}@example.com`,
            role: "support",
            password: "rita-pass-1234",
          });
          if (!added.ok) throw new Error("setup");
          inviteeId = added.value.id;
          data(await changeRoleAction({ userId: inviteeId, role: "owner" }));
        },
      },
      { action: "team.removed", run: async () => data(await removeMemberAction({ userId: inviteeId })) },
      { action: "settings.updated", run: async () => data(await updateMerchantSettingsAction({ allowLivePins: true })) },
      { action: "settings.updated", run: async () => data(await updateInvoiceLifetimeAction({ lifetimeMinutes: 45 })) },
      { action: "settings.updated", run: async () => data(await renameBusinessAction({ merchantName: "Audited Renamed Ltd" })) },
      {
        action: "webhook.endpoint_created",
        run: async () => {
          const created = data(await createWebhookEndpointAction(endpoint));
          endpointId = created.id;
          return created;
        },
      },
      {
        action: "webhook.endpoint_updated",
        run: async () => data(await updateWebhookEndpointAction({ endpointId, ...endpoint, description: "audited, renamed" })),
      },
      { action: "webhook.secret_rotated", run: async () => data(await rotateWebhookSecretAction({ endpointId })) },
      { action: "webhook.endpoint_deleted", run: async () => data(await deleteWebhookEndpointAction({ endpointId })) },
      { action: "refund.created", run: async () => data(await refundInvoiceAction({ invoiceId: w.paymentId, referenceId: unique("refund"), amount: "0.01" })) },
    ];
  };

  it("each family of change writes one row naming the person, the action and the target, with no secret in it", async () => {
    session.userId = w.ownerId;
    const secrets = [SECRET, "url-secret-4711"];
    for (const step of steps()) {
      const before = await t.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.merchantId, w.merchantId));
      const answer = await step.run();
      const rows = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.merchantId, w.merchantId)));
      const added = rows.filter((row) => !before.some((b) => b.id === row.id));
      expect(
        added.map((row) => row.action),
        step.action,
      ).toEqual([step.action]);
      expect(added[0], step.action).toMatchObject({ actorType: "user", actorId: w.ownerId, actorLabel: expect.stringContaining("@example.com") });
      expect(added[0]!.targetType, step.action).toBeTruthy();
      // What an answer shows once (the API key, the webhook signing secret) must never reach the log.
      for (const [name, value] of Object.entries((answer ?? {}) as Record<string, unknown>))
        if ((name === "key" || name === "secret") && typeof value === "string") secrets.push(value);
    }
    // Two-factor changes too, with the codes and the secret nowhere in the log.
    const { secret, recoveryCodes } = await enrol();
    const regenerated = data(await regenerateRecoveryCodesAction({ code: await code(secret, 30) })).recoveryCodes;
    data(await setRequireOwnerMfaAction({ requireOwnerMfa: true }));
    data(await setRequireOwnerMfaAction({ requireOwnerMfa: false }));
    data(await disableMfaAction({ password: OWNER_PASSWORD, code: regenerated[1] }));
    secrets.push(secret, ...recoveryCodes, ...regenerated);
    const all = await t.db.select().from(auditLog).where(eq(auditLog.merchantId, w.merchantId));
    const actions = new Set(all.map((row) => row.action));
    for (const action of ["mfa.enabled", "mfa.recovery_codes_regenerated", "mfa.required_changed", "mfa.disabled"]) expect(actions, action).toContain(action);
    const text = JSON.stringify(all);
    expect(secrets.length).toBeGreaterThan(4);
    for (const secretText of secrets) expect(text, "a secret in the audit log").not.toContain(secretText);
  });

  it("the page's query filters by type, person and date, newest first, and never shows another merchant's entries", async () => {
    session.userId = w.ownerId;
    data(await createApiKeyAction({ name: "filter key", mode: "test", scope: "full" }));
    session.userId = other.ownerId;
    data(await createApiKeyAction({ name: "other merchant's key", mode: "test", scope: "full" }));
    const mine = await listAuditLog(t.db, w.merchantId, {});
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(mine.entries.some((entry) => entry.summary.includes("other merchant's key"))).toBe(false);
    const times = mine.entries.map((entry) => entry.createdAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const keys = await listAuditLog(t.db, w.merchantId, { group: "api_key", actor: w.ownerId });
    expect(keys.entries.length).toBeGreaterThan(0);
    expect(keys.entries.every((entry) => entry.action.startsWith("api_key.") && entry.actorId === w.ownerId)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect((await listAuditLog(t.db, w.merchantId, { from: today, to: today })).entries.length).toBeGreaterThan(0);
    expect((await listAuditLog(t.db, w.merchantId, { to: "2001-01-01" })).entries).toEqual([]);
    // Another merchant's person as the filter finds nothing here.
    expect((await listAuditLog(t.db, w.merchantId, { actor: other.ownerId })).entries).toEqual([]);
  });

  it("reads bad filter values from the URL as field messages and ignores them", () => {
    expect(readAuditFilter({ group: "nope", from: "2024-02-30", to: "2024-01-01", page: "0", actor: "a b" })).toEqual({
      filter: { to: "2024-01-01" },
      errors: { group: "Choose a type from the list", from: "Enter a real date", page: "Page starts at 1", actor: "Choose a person or key from the list" },
    });
    expect(readAuditFilter({ from: "2024-03-01", to: "2024-01-01" }).errors).toEqual({ to: "The end date is before the start date" });
    expect(readAuditFilter({ group: ["routing", "team"] }).filter).toEqual({ group: "routing" });
  });

  it("the Audit log page is for owners: a support member gets the forbidden page", async () => {
    session.userId = w.supportId;
    await expect(AuditLogPage({ searchParams: Promise.resolve({}) })).rejects.toMatchObject({ digest: expect.stringContaining("/forbidden") });
    session.userId = w.ownerId;
    await expect(AuditLogPage({ searchParams: Promise.resolve({ group: "routing" }) })).resolves.toBeTruthy();
  });
});
