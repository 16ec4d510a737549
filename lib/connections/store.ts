import "server-only";
import type { connections } from "@/lib/db/schema";
import { getKind, servicesForConnection, type CredentialValues, type KindSpec } from "@/lib/providers";
import { decryptJson, encryptJson, maskSecret } from "@/lib/vault";

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

export function sealSecrets(secrets: Record<string, string>, key: Buffer) {
  const hints = Object.fromEntries(Object.entries(secrets).map(([id, v]) => [id, maskSecret(v)]));
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
export function exclusiveKeyOf(
  kind: KindSpec,
  row: { provider: string; enabled: boolean; mode: string; currency: string | null },
): string | null {
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
  createdAt: Date;
  updatedAt: Date;
};

function displayValue(value: unknown): string {
  if (typeof value === "boolean") return value ? "On" : "Off";
  if (Array.isArray(value)) return value.length ? value.join(", ") : "None";
  if (typeof value === "string" && value.includes("-----BEGIN")) return `${value.split("\n")[0]} (${value.length} characters)`;
  return value === undefined || value === null || value === "" ? "Not set" : String(value);
}

export function toConnectionView(row: ConnectionRow): ConnectionView {
  const kind = kindOf(row);
  const credentials = kind.fields
    .filter((f) => !f.hidden)
    .map((f) => {
      const hint = row.secretHints[f.id];
      const value = row.publicCredentials[f.id];
      return f.secret
        ? { id: f.id, label: f.label, secret: true, set: Boolean(hint), display: hint ?? "Not set" }
        : { id: f.id, label: f.label, secret: false, set: value !== undefined && value !== "", display: displayValue(value) };
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
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
