import "server-only";
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { personActor, recordAudit } from "@/lib/audit/record";
import { credentialsKey } from "@/lib/vault/vault-key";
import type { Db } from "@/lib/db/client";
import { merchants, mfaRecoveryCodes, users } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { fail, ok, problem, refuse, type Result } from "@/lib/problems";
import { decryptSecret, encryptSecret } from "@/lib/vault";
import type { Viewer } from "../membership";
import { verifyPassword } from "../password";
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from "./recovery-codes";
import { newTotpSecret, totpUri, verifyTotp } from "./totp";

/**
 * Two-factor sign-in (TOTP) for one person: enrolment, recovery codes, turning it off, and the
 * check the sign-in's second step makes. The secret is sealed by the vault; after enrolment it is
 * only ever opened here, on the server, to check a code. Recovery codes are stored as hashes.
 */

type MfaRow = {
  totpSecret: string | null;
  totpPendingSecret: string | null;
  totpEnabledAt: Date | null;
  totpLastStep: number | null;
  passwordHash: string;
  email: string;
};

async function mfaRow(db: Db, userId: string): Promise<MfaRow | undefined> {
  const [row] = await db
    .select({
      totpSecret: users.totpSecret,
      totpPendingSecret: users.totpPendingSecret,
      totpEnabledAt: users.totpEnabledAt,
      totpLastStep: users.totpLastStep,
      passwordHash: users.passwordHash,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

async function isMfaEnabled(db: Db, userId: string): Promise<boolean> {
  return Boolean((await mfaRow(db, userId))?.totpEnabledAt);
}

export type MfaStatus = { enabled: boolean; enabledAt: Date | null; recoveryCodesLeft: number };

export async function mfaStatus(db: Db, userId: string): Promise<MfaStatus> {
  const row = await mfaRow(db, userId);
  const [left] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return { enabled: Boolean(row?.totpEnabledAt), enabledAt: row?.totpEnabledAt ?? null, recoveryCodesLeft: row?.totpEnabledAt ? (left?.count ?? 0) : 0 };
}

const alreadyOn = () => refuse("mfa_enabled", "Two-factor authentication is already on. Turn it off first to set it up with another app.");
const notOn = () => refuse("mfa_not_enabled", "Two-factor authentication is not on.");
const wrongCode = (field = "code") =>
  fail([problem("wrong_code", "This code is not right (or was already used). Enter the code your app shows now.", [field])]);
const wrongPassword = () => fail([problem("wrong_password", "The current password is not correct", ["password"])]);
/** Enabling or disabling two-factor ends the person's sessions in the same update; the action issues this browser a new one. */
const endingSessions = sql`${users.sessionVersion} + 1`;

/**
 * Step one of enrolment, after the current password: a new secret, kept sealed as pending until a
 * code confirms it. Answers the secret and its otpauth:// URI to show once, as a QR code and as text.
 */
export async function startEnrolment(db: Db, viewer: Viewer, password: string): Promise<Result<{ secret: string; uri: string }>> {
  const row = await mfaRow(db, viewer.user.id);
  if (!row) return notOn();
  if (row.totpEnabledAt) return alreadyOn();
  if (!(await verifyPassword(password, row.passwordHash))) return wrongPassword();
  const secret = newTotpSecret();
  await db
    .update(users)
    .set({ totpPendingSecret: encryptSecret(secret, credentialsKey()) })
    .where(eq(users.id, viewer.user.id));
  return ok({ secret, uri: totpUri(secret, row.email) });
}

async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await tx.insert(mfaRecoveryCodes).values(codes.map((code) => ({ id: newId("rc"), userId, codeHash: hashRecoveryCode(code) })));
  return codes;
}

/**
 * Step two, with the current password again: the code the app shows now proves the app holds the
 * secret; then ten recovery codes, shown once. Every session of the person ends.
 */
export async function confirmEnrolment(db: Db, viewer: Viewer, proof: { password: string; code: string }): Promise<Result<{ recoveryCodes: string[] }>> {
  const { code } = proof;
  const row = await mfaRow(db, viewer.user.id);
  if (!row) return notOn();
  if (row.totpEnabledAt) return alreadyOn();
  if (!row.totpPendingSecret) return refuse("no_enrolment", "Start again: choose Set up two-factor authentication.");
  if (!(await verifyPassword(proof.password, row.passwordHash))) return wrongPassword();
  const step = await verifyTotp(decryptSecret(row.totpPendingSecret, credentialsKey()), code, null);
  if (step === undefined) return wrongCode();
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const moved = await tx
      .update(users)
      .set({ totpSecret: row.totpPendingSecret, totpPendingSecret: null, totpEnabledAt: new Date(), totpLastStep: step, sessionVersion: endingSessions })
      .where(and(eq(users.id, viewer.user.id), isNull(users.totpEnabledAt), eq(users.totpPendingSecret, row.totpPendingSecret!)))
      .returning({ id: users.id });
    if (!moved.length) return alreadyOn();
    const recoveryCodes = await replaceRecoveryCodes(tx, viewer.user.id);
    await recordAudit(tx, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "mfa.enabled",
      target: { type: "user", id: viewer.user.id },
      summary: viewer.user.email,
    });
    return ok({ recoveryCodes });
  });
}

/**
 * Accepts a TOTP code once: its step must be later than the last accepted one, written with a
 * compare-and-set so two requests with the same code cannot both pass.
 */
async function acceptTotp(db: Db, userId: string, row: MfaRow, code: string): Promise<boolean> {
  if (!row.totpSecret) return false;
  const step = await verifyTotp(decryptSecret(row.totpSecret, credentialsKey()), code, row.totpLastStep);
  if (step === undefined) return false;
  const taken = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), isNotNull(users.totpEnabledAt), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return taken.length > 0;
}

/** Spends a recovery code: each works once (the update that marks it used is the check). */
async function acceptRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  if (!looksLikeRecoveryCode(code)) return false;
  const used = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, hashRecoveryCode(code)), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ id: mfaRecoveryCodes.id });
  return used.length > 0;
}

/**
 * The sign-in's second step (lib/auth): a current app code or an unused recovery code of a person
 * with two-factor on. Answers how it passed, or undefined.
 */
export async function checkSecondFactor(db: Db, userId: string, code: string): Promise<"totp" | "recovery" | undefined> {
  const row = await mfaRow(db, userId);
  if (!row?.totpEnabledAt) return undefined;
  const compact = code.replace(/\s+/g, "");
  if (/^\d{6}$/.test(compact)) return (await acceptTotp(db, userId, row, compact)) ? "totp" : undefined;
  return (await acceptRecoveryCode(db, userId, code)) ? "recovery" : undefined;
}

/** New recovery codes (the old ones stop working), after a current app code. */
export async function regenerateRecoveryCodes(db: Db, viewer: Viewer, code: string): Promise<Result<{ recoveryCodes: string[] }>> {
  const row = await mfaRow(db, viewer.user.id);
  if (!row?.totpEnabledAt) return notOn();
  if (!(await acceptTotp(db, viewer.user.id, row, code))) return wrongCode();
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const recoveryCodes = await replaceRecoveryCodes(tx, viewer.user.id);
    await recordAudit(tx, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "mfa.recovery_codes_regenerated",
      target: { type: "user", id: viewer.user.id },
      summary: viewer.user.email,
    });
    return ok({ recoveryCodes });
  });
}

/**
 * Turns two-factor sign-in off after the current password and a current code (app or recovery),
 * and ends every session of the person. An owner of a merchant that requires it for owners may not.
 */
export async function disableMfa(db: Db, viewer: Viewer, proof: { password: string; code: string }): Promise<Result<null>> {
  const row = await mfaRow(db, viewer.user.id);
  if (!row?.totpEnabledAt) return notOn();
  const [merchant] = await db.select({ required: merchants.requireOwnerMfa }).from(merchants).where(eq(merchants.id, viewer.merchant.id)).limit(1);
  if (merchant?.required && viewer.user.role === "owner") {
    return refuse("mfa_required", "Your business requires two-factor authentication for owners. An owner can turn that requirement off in Settings first.");
  }
  // The password first: a wrong one spends no recovery code.
  if (!(await verifyPassword(proof.password, row.passwordHash))) return wrongPassword();
  if (!(await checkSecondFactor(db, viewer.user.id, proof.code))) return wrongCode();
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await tx
      .update(users)
      .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null, sessionVersion: endingSessions })
      .where(eq(users.id, viewer.user.id));
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, viewer.user.id));
    await recordAudit(tx, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "mfa.disabled",
      target: { type: "user", id: viewer.user.id },
      summary: viewer.user.email,
    });
    return ok(null);
  });
}

/** Settings (owners): switches the requirement; turning it on needs the owner's own two-factor first. */
export async function setRequireOwnerMfa(db: Db, viewer: Viewer, required: boolean): Promise<Result<{ requireOwnerMfa: boolean }>> {
  if (required && !(await isMfaEnabled(db, viewer.user.id))) {
    return fail([problem("enrol_first", "Set up two-factor authentication for yourself first (under You), then require it for owners.", ["requireOwnerMfa"])]);
  }
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [before] = await tx.select({ required: merchants.requireOwnerMfa }).from(merchants).where(eq(merchants.id, viewer.merchant.id)).for("update");
    if (!before) return refuse("not_found", "Your merchant account no longer exists.");
    if (before.required === required) return ok({ requireOwnerMfa: required });
    await tx.update(merchants).set({ requireOwnerMfa: required }).where(eq(merchants.id, viewer.merchant.id));
    await recordAudit(tx, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "mfa.required_changed",
      target: { type: "settings", id: viewer.merchant.id },
      summary: `Two-factor authentication for owners: ${required ? "required" : "not required"}`,
      changes: ["require_owner_mfa"],
    });
    return ok({ requireOwnerMfa: required });
  });
}

/**
 * The operator's way out for someone who lost both their phone and their recovery codes
 * (`npm run admin -- reset-two-factor --email E`): two-factor off, codes gone, every session ended,
 * written to the merchant's audit log. Undefined when no one has that e-mail.
 */
export async function resetMfaByOperator(db: Db, email: string): Promise<{ userId: string; wasEnabled: boolean } | undefined> {
  const [user] = await db
    .select({ id: users.id, merchantId: users.merchantId, email: users.email, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  if (!user) return undefined;
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await tx
      .update(users)
      .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null, sessionVersion: endingSessions })
      .where(eq(users.id, user.id));
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
    await recordAudit(tx, {
      merchantId: user.merchantId,
      actor: { type: "system", label: "Operator (npm run admin)" },
      action: "mfa.disabled",
      target: { type: "user", id: user.id },
      summary: `${user.email}, reset by the operator`,
    });
  });
  return { userId: user.id, wasEnabled: Boolean(user.enabledAt) };
}
