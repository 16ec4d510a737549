import "server-only";
import type { connections } from "@/lib/db/schema";
import { getKind, servicesForConnection, type CredentialValues, type FieldSpec, type KindSpec } from "@/lib/providers";
import { decryptJson, encryptJson, maskSecret } from "@/lib/vault";
import { keySummary, looksLikePem } from "./key-fingerprint";
import { credentialsKey } from "../vault/vault-key";

export type ConnectionRow = typeof connections.$inferSelect;

/** Secret fields go into the vault; the rest stays readable for lists, routing and forms. */
export function splitCredentials(kind: KindSpec, credentials: CredentialValues) {
  const publicCredentials: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const field of kind.fields) {
    const value = credentials[field.id];
    if (value === undefined) continue;
    if (field.secret) secrets[field.id] = String(value);
    else publicCredentials[field.id] = value;
  }
  return { publicCredentials, secrets };
}

/** A secret's hint: a key file by its type and public fingerprint (its last characters say nothing), else its last four. */
function hintOf(value: string): string {
  return (looksLikePem(value) && keySummary(value)) || maskSecret(value);
}

export function sealSecrets(secrets: Record<string, string>, key: Buffer) {
  const hints = Object.fromEntries(Object.entries(secrets).map(([id, v]) => [id, hintOf(v)]));
  return { secretCredentials: encryptJson(secrets, key), secretHints: hints };
}

export function openSecrets(row: Pick<ConnectionRow, "secretCredentials">, key: Buffer): Record<string, string> {
  return decryptJson<Record<string, string>>(row.secretCredentials, key);
}

/** The full credentials, for the provider call only. Never hand this to a page or a response. */
export function revealCredentials(row: ConnectionRow, key: Buffer): CredentialValues {
  return { ...row.publicCredentials, ...openSecrets(row, key) };
}

export function kindOf(row: Pick<ConnectionRow, "provider" | "kind">): KindSpec {
  const kind = getKind(row.provider, row.kind);
  if (!kind) throw new Error(`Connection of unknown provider kind ${row.provider}/${row.kind}`);
  return kind;
}

/** Provider D: one enabled connection per merchant, currency and mode, enforced by a unique index. */
export function exclusiveKeyOf(kind: KindSpec, row: { provider: string; enabled: boolean; mode: string; currency: string | null }): string | null {
  if (!kind.onePerCurrencyAndMode || !row.enabled) return null;
  return `${row.provider}:${row.currency ?? "-"}:${row.mode}`;
}

export type CredentialView = { id: string; label: string; secret: boolean; set: boolean; display: string };

/** What a page or an API response may show: secrets as "set" and their last four characters, other values in full. */
export type ConnectionView = {
  id: string;
  provider: string;
  kind: string;
  label: string;
  mode: "test" | "live";
  enabled: boolean;
  currency: string | null;
  credentials: CredentialView[];
  /** Non-secret credential values as stored, to prefill edit forms. */
  publicValues: Record<string, unknown>;
  constants: Record<string, string>;
  services: string[];
  /** From its recent attempts (lib/analytics/connection-health.ts), with the latest attempt that did not succeed. */
  health: ConnectionRow["health"];
  /** The outcomes the health rule reads, oldest first (`S` success, `F` technical failure). */
  healthWindow: string;
  healthChangedAt: Date | null;
  disputeRateHigh: boolean;
  lastError: { at: Date; resolution: string | null; message: string | null } | null;
  createdAt: Date;
  updatedAt: Date;
};

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A value as words: options by their labels ("Payments, Payouts"), key files by type and fingerprint. */
function displayValue(field: FieldSpec, value: unknown): string {
  const word = (v: unknown) => field.options?.find((option) => option.value === v)?.label ?? String(v);
  if (typeof value === "boolean") return value ? "On" : "Off";
  // "Payments, payouts": one phrase, so only its first word keeps the capital.
  if (Array.isArray(value)) return value.length ? value.map((v, i) => (i === 0 ? word(v) : lowerFirst(word(v)))).join(", ") : "None";
  if (looksLikePem(value)) return keySummary(value) ?? "Key file that cannot be read";
  return value === undefined || value === null || value === "" ? "Not set" : word(value);
}

/**
 * Rows saved before key files got fingerprint hints hold "••••" plus the PEM's last characters;
 * their fingerprint is worked out from the stored key here (nothing new is stored).
 */
function secretDisplay(row: ConnectionRow, field: FieldSpec, hint: string): string {
  if (field.input !== "key_file" || !hint.startsWith("••••")) return hint;
  try {
    const value = openSecrets(row, credentialsKey())[field.id];
    return (looksLikePem(value) && keySummary(value)) || "Key file stored";
  } catch {
    return "Key file stored";
  }
}

export function toConnectionView(row: ConnectionRow): ConnectionView {
  const kind = kindOf(row);
  const credentials = kind.fields
    .filter((f) => !f.hidden)
    .map((f) => {
      const hint = row.secretHints[f.id];
      const value = row.publicCredentials[f.id];
      return f.secret
        ? { id: f.id, label: f.label, secret: true, set: Boolean(hint), display: hint ? secretDisplay(row, f, hint) : "Not set" }
        : { id: f.id, label: f.label, secret: false, set: value !== undefined && value !== "", display: displayValue(f, value) };
    });
  return {
    id: row.id,
    provider: row.provider,
    kind: row.kind,
    label: row.label,
    mode: row.mode,
    enabled: row.enabled,
    currency: row.currency,
    credentials,
    publicValues: row.publicCredentials,
    constants: row.constants,
    services: servicesForConnection(row.provider, kind, row.publicCredentials).map((s) => s.code),
    health: row.health,
    healthWindow: row.healthWindow,
    healthChangedAt: row.healthChangedAt,
    disputeRateHigh: row.disputeRateHigh,
    lastError: row.lastErrorAt ? { at: row.lastErrorAt, resolution: row.lastErrorResolution, message: row.lastErrorMessage } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
