import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections } from "@/lib/db/schema";
import { fail, ok, prefixPaths, problem, problemsFromZod, type Problem, type Result } from "@/lib/problems";
import { newId } from "@/lib/ids";
import { isVaultError } from "@/lib/vault";
import { modeOf, validateCredentials, type CredentialValues, type KindSpec, type Mode } from "@/lib/providers";
import { getProviderServer } from "@/lib/providers/server/servers";
import { recordAudit, type Actor } from "@/lib/audit/record";
import { forgetRoutes } from "./route-cache";
import { checkKeyFiles, takeGeneratedKey } from "./key-files";
import { findConnectionRow, findExclusiveHolder, findLabelOwner, isConnectionId } from "./queries";
import { updateConnectionSchema, type CreateConnection, type UpdateConnection } from "./schemas";
import { exclusiveKeyOf, kindOf, openSecrets, sealSecrets, splitCredentials, toConnectionView, type ConnectionRow, type ConnectionView } from "./store";
import { ProblemsError } from "@/lib/errors";
import { isUniqueViolation } from "@/lib/db/errors";

type Scope = { db: Db; merchantId: string; actor: Actor; vaultKey: Buffer };

/**
 * Routing answers are cached (route-cache.ts): once a write has committed, forget the merchant's,
 * so the next invoice is routed by what the connections are now.
 */
async function thenForgetRoutes<T>(scope: Scope, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } finally {
    forgetRoutes(scope.merchantId);
  }
}

function labelTaken(label: string): Problem {
  return problem("label_taken", `You already have a connection named "${label}". Labels are unique per merchant.`, ["label"]);
}

function deletedMeanwhile(): Problem {
  return problem("not_found", "This connection was deleted meanwhile.");
}

async function exclusivityProblem(scope: Scope, kind: KindSpec, key: string | null, selfId?: string): Promise<Problem | undefined> {
  if (!key || !kind.onePerCurrencyAndMode) return undefined;
  const holder = await findExclusiveHolder(scope.db, scope.merchantId, key);
  if (!holder || holder.id === selfId) return undefined;
  return problem(
    "one_per_currency_and_mode",
    `${kind.onePerCurrencyAndMode.reason} "${holder.label}" is already enabled for ${holder.currency} in ${holder.mode} mode: disable it first.`,
    ["credentials", "currency"],
  );
}

/**
 * A kind's own live address (its `liveUrlField`) receives the connection's secrets, so
 * in live mode it must pass the provider's own check (`guardLiveUrl` of its server half; checked
 * again before each send).
 */
async function liveUrlProblems(provider: string, kind: KindSpec, mode: Mode, credentials: CredentialValues): Promise<Problem[]> {
  if (!kind.liveUrlField || mode !== "live") return [];
  const guard = getProviderServer(provider)?.guardLiveUrl;
  if (!guard) return [problem("invalid_url", `${provider} declares no check of this address, so it cannot be saved.`, ["credentials", kind.liveUrlField])];
  return guard(credentials[kind.liveUrlField], "save");
}

/**
 * A changed live address would receive the stored secrets, so changing it takes the
 * secrets again, each named where it is missing.
 */
function secretsForNewUrl(kind: KindSpec, changed: readonly string[], changes: CredentialValues | undefined): Problem[] {
  const field = kind.liveUrlField && kind.fields.find((entry) => entry.id === kind.liveUrlField);
  if (!field || !changed.includes(`credentials.${field.id}`)) return [];
  return kind.fields
    .filter((entry) => entry.secret && isBlank(changes?.[entry.id]))
    .map((entry) =>
      problem(
        "secret_required",
        `Enter the ${entry.label} again: the ${field.label} changed, and the stored secrets are never sent to a new address without being re-entered.`,
        ["credentials", entry.id],
      ),
    );
}

/**
 * A connection's mode is fixed when it is created: invoices already routed to a test connection
 * must never be settled by a live provider, nor live ones by a sandbox. Going live is a new
 * connection.
 */
function modeFixed(mode: Mode, path: readonly string[]): Problem {
  const other = mode === "test" ? "live" : "test";
  return problem(
    "mode_fixed",
    `This connection was created in ${mode} mode, and a connection's mode cannot change. To work in ${other} mode, add a new ${other} connection.`,
    path,
  );
}

/** A concurrent writer won the label or the currency slot between our check and our write. */
async function explainConflict(scope: Scope, kind: KindSpec, label: string, key: string | null, selfId?: string) {
  const owner = await findLabelOwner(scope.db, scope.merchantId, label);
  const problems = owner && owner !== selfId ? [labelTaken(label)] : [];
  const exclusive = await exclusivityProblem(scope, kind, key, selfId);
  return exclusive ? [...problems, exclusive] : problems;
}

export function createConnection(scope: Scope, input: CreateConnection): Promise<Result<ConnectionView>> {
  return thenForgetRoutes(scope, createConnectionNow(scope, input));
}

async function createConnectionNow(scope: Scope, input: CreateConnection): Promise<Result<ConnectionView>> {
  const kind = kindOf(input);
  const currency = typeof input.credentials.currency === "string" ? input.credentials.currency : null;
  const exclusiveKey = exclusiveKeyOf(kind, { provider: input.provider, enabled: true, mode: input.mode, currency });
  const problems = [...checkKeyFiles(kind, input.credentials), ...(await liveUrlProblems(input.provider, kind, input.mode, input.credentials))];
  if (await findLabelOwner(scope.db, scope.merchantId, input.label)) problems.push(labelTaken(input.label));
  const exclusive = await exclusivityProblem(scope, kind, exclusiveKey);
  if (exclusive) problems.push(exclusive);
  if (problems.length) return fail(problems);
  try {
    return await scope.db.transaction(async (tx) => {
      const taken = await takeGeneratedKey(tx as unknown as Db, scope.merchantId, input.credentials, scope.vaultKey);
      if (!taken.ok) throw new ProblemsError(taken.problems);
      const keyProblems = checkKeyFiles(kind, taken.value);
      if (keyProblems.length) throw new ProblemsError(keyProblems);
      const { publicCredentials, secrets } = splitCredentials(kind, taken.value);
      const [row] = await tx
        .insert(connections)
        .values({
          id: newId("conn"),
          merchantId: scope.merchantId,
          provider: input.provider,
          kind: input.kind,
          label: input.label,
          mode: input.mode,
          enabled: true,
          currency,
          publicCredentials,
          ...sealSecrets(secrets, scope.vaultKey),
          constants: input.constants,
          exclusiveKey,
        })
        .returning();
      await recordAudit(tx as unknown as Db, {
        merchantId: scope.merchantId,
        actor: scope.actor,
        action: "connection.created",
        target: { type: "connection", id: row!.id },
        summary: `${row!.label} (${row!.provider}, ${row!.mode})`,
        changes: ["label", "mode", ...Object.keys(taken.value).map((id) => `credentials.${id}`), ...Object.keys(input.constants).map((n) => `constants.${n}`)],
      });
      return ok(toConnectionView(row!));
    });
  } catch (error) {
    if (error instanceof ProblemsError) return fail(error.problems);
    if (!isUniqueViolation(error)) throw error;
    return fail(await explainConflict(scope, kind, input.label, exclusiveKey));
  }
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/** The stored secrets; a value the vault cannot open (a credentials key no longer configured) refuses the edit with a clear problem. */
function openStoredSecrets(row: ConnectionRow, vaultKey: Buffer): Record<string, string> {
  try {
    return openSecrets(row, vaultKey);
  } catch (error) {
    if (!isVaultError(error)) throw error;
    throw new ProblemsError([
      problem(
        "credentials_unreadable",
        "This connection's stored secrets cannot be read with this installation's credentials keys, so it cannot be edited. Ask the operator to restore the key, or delete the connection and create it again.",
        ["credentials"],
      ),
    ]);
  }
}

/** Stored values with the new ones laid over; a blank secret or key file keeps what is stored. */
function mergeCredentials(kind: KindSpec, row: ConnectionRow, vaultKey: Buffer, changes: CredentialValues | undefined) {
  const stored: CredentialValues = { ...row.publicCredentials, ...openStoredSecrets(row, vaultKey) };
  const merged: CredentialValues = { ...stored };
  const changed: string[] = [];
  for (const field of kind.fields) {
    if (!changes || !(field.id in changes)) continue;
    const value = changes[field.id];
    if ((field.secret || field.input === "key_file") && isBlank(value)) continue;
    if (JSON.stringify(value) !== JSON.stringify(stored[field.id])) changed.push(`credentials.${field.id}${field.secret ? " (replaced)" : ""}`);
    if (value === undefined) delete merged[field.id];
    else merged[field.id] = value;
  }
  return { merged, changed };
}

function mergeConstants(stored: Record<string, string>, changes: UpdateConnection["constants"]) {
  const next = { ...stored };
  const changed: string[] = [];
  for (const [name, value] of Object.entries(changes ?? {})) {
    if (value === undefined || value === next[name]) continue;
    if (value === null) {
      if (!(name in next)) continue;
      delete next[name];
    } else next[name] = value;
    changed.push(`constants.${name}`);
  }
  return { next, changed };
}

export function updateConnection(scope: Scope, id: string, input: UpdateConnection): Promise<Result<ConnectionView> | undefined> {
  return thenForgetRoutes(scope, updateConnectionNow(scope, id, input));
}

async function updateConnectionNow(scope: Scope, id: string, input: UpdateConnection): Promise<Result<ConnectionView> | undefined> {
  const current = await findConnectionRow(scope.db, scope.merchantId, id);
  if (!current) return undefined;
  const kind = kindOf(current);
  let label = input.label ?? current.label;
  let exclusiveKey: string | null = null;
  try {
    // One transaction: a generated key is consumed only when the edit is saved.
    return await scope.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      // Locked, so two edits at once apply one after the other instead of one undoing the other.
      const [row] = await tx
        .select()
        .from(connections)
        .where(and(eq(connections.id, current.id), eq(connections.merchantId, scope.merchantId), isNull(connections.deletedAt)))
        .for("update");
      if (!row) throw new ProblemsError([deletedMeanwhile()]);
      label = input.label ?? row.label;
      // An edit never re-enables a disabled connection: only an explicit `enabled` does.
      const enabled = input.enabled ?? row.enabled;
      let credentialChanges = input.credentials;
      if (credentialChanges?.generated_key_id) {
        const taken = await takeGeneratedKey(tx, scope.merchantId, credentialChanges, scope.vaultKey);
        if (!taken.ok) throw new ProblemsError(taken.problems);
        credentialChanges = taken.value;
      }
      const { merged, changed } = mergeCredentials(kind, row, scope.vaultKey, credentialChanges);
      // A chosen Test/Live mode decides; an older Provider F connection's stored `test_mode` flag
      // is dropped rather than refusing the change (a client sending both still has them checked).
      if (input.mode && kind.modeField && credentialChanges?.[kind.modeField] === undefined) delete merged[kind.modeField];
      const mode = row.mode as Mode;
      const asked = input.mode ?? (kind.modeField ? modeOf(kind, merged, mode) : mode);
      if (asked !== mode) throw new ProblemsError([modeFixed(mode, input.mode ? ["mode"] : ["credentials", kind.modeField!])]);
      const checked = validateCredentials(kind, merged, mode);
      const problems = checked.ok ? checkKeyFiles(kind, checked.value) : prefixPaths(["credentials"], checked.problems);
      problems.push(...secretsForNewUrl(kind, changed, credentialChanges));
      if (checked.ok) problems.push(...(await liveUrlProblems(row.provider, kind, mode, checked.value)));
      const owner = label.toLowerCase() !== row.label.toLowerCase() ? await findLabelOwner(tx, scope.merchantId, label) : undefined;
      if (owner && owner !== row.id) problems.push(labelTaken(label));
      const currency = typeof merged.currency === "string" ? merged.currency : null;
      exclusiveKey = exclusiveKeyOf(kind, { provider: row.provider, enabled, mode, currency });
      const exclusive = await exclusivityProblem({ ...scope, db: tx }, kind, exclusiveKey, row.id);
      if (exclusive) problems.push(enabled && !row.enabled && input.enabled ? { ...exclusive, path: ["enabled"] } : exclusive);
      if (problems.length || !checked.ok) throw new ProblemsError(problems);
      const constants = mergeConstants(row.constants, input.constants);
      const changes = [...(label !== row.label ? ["label"] : []), ...(enabled !== row.enabled ? ["enabled"] : []), ...changed, ...constants.changed];
      if (!changes.length) return ok(toConnectionView(row));
      const { publicCredentials, secrets } = splitCredentials(kind, checked.value);
      const [updated] = await tx
        .update(connections)
        .set({
          label,
          mode,
          enabled,
          currency,
          publicCredentials,
          ...sealSecrets(secrets, scope.vaultKey),
          constants: constants.next,
          exclusiveKey,
          updatedAt: new Date(),
        })
        .where(and(eq(connections.id, row.id), eq(connections.merchantId, scope.merchantId), isNull(connections.deletedAt)))
        .returning();
      if (!updated) throw new ProblemsError([deletedMeanwhile()]);
      await recordAudit(tx, {
        merchantId: scope.merchantId,
        actor: scope.actor,
        action: auditAction(changes, enabled),
        target: { type: "connection", id: row.id },
        summary: updated.label,
        changes,
      });
      return ok(toConnectionView(updated));
    });
  } catch (error) {
    if (error instanceof ProblemsError) return fail(error.problems);
    if (!isUniqueViolation(error)) throw error;
    return fail(await explainConflict(scope, kind, label, exclusiveKey, current.id));
  }
}

/** Provider and kind are fixed once created: a different provider is a new connection. */
const FIXED = ["provider", "kind"] as const;

/**
 * An edit as the form and the management API send it: attributes as received, parsed against the
 * stored connection's kind. Provider and kind may be sent only unchanged. Undefined when the
 * merchant has no such connection.
 */
export async function editConnection(scope: Scope, id: string, attributes: Record<string, unknown>): Promise<Result<ConnectionView> | undefined> {
  const row = await findConnectionRow(scope.db, scope.merchantId, id);
  if (!row) return undefined;
  const fixed = FIXED.filter((k) => k in attributes && attributes[k] !== row[k]).map((k) =>
    problem("immutable", `${k} cannot change; create a new connection instead`, [k]),
  );
  const { provider: _p, kind: _k, ...changes } = attributes;
  const parsed = updateConnectionSchema(kindOf(row)).safeParse(changes);
  const problems = [...fixed, ...(parsed.success ? [] : problemsFromZod(parsed.error.issues))];
  if (problems.length || !parsed.success) return fail(problems);
  return updateConnection(scope, row.id, parsed.data);
}

function auditAction(changes: string[], enabled: boolean) {
  if (changes.every((c) => c.startsWith("constants."))) return "connection.constants_updated" as const;
  if (changes.length === 1 && changes[0] === "enabled") return enabled ? ("connection.enabled" as const) : ("connection.disabled" as const);
  return "connection.updated" as const;
}

export function setConnectionEnabled(scope: Scope, id: string, enabled: boolean) {
  return updateConnection(scope, id, { enabled, label: undefined, mode: undefined, credentials: undefined, constants: undefined });
}

export function deleteConnection(scope: Scope, id: string): Promise<boolean> {
  return thenForgetRoutes(scope, deleteConnectionNow(scope, id));
}

async function deleteConnectionNow(scope: Scope, id: string): Promise<boolean> {
  if (!isConnectionId(id)) return false;
  return scope.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const rows = await tx
      .update(connections)
      .set({ deletedAt: new Date(), enabled: false, exclusiveKey: null, updatedAt: new Date() })
      .where(and(eq(connections.id, id), eq(connections.merchantId, scope.merchantId), isNull(connections.deletedAt)))
      .returning({ id: connections.id, label: connections.label });
    if (!rows.length) return false;
    await recordAudit(tx, {
      merchantId: scope.merchantId,
      actor: scope.actor,
      action: "connection.deleted",
      target: { type: "connection", id },
      summary: rows[0]!.label,
    });
    return true;
  });
}
