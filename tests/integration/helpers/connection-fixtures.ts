import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { createApiKey } from "@/lib/api-keys/queries";
import type { ApiKeyScope } from "@/lib/api-keys/choices";
import { signUpSchema } from "@/lib/identity/schemas";
import type { Actor } from "@/lib/audit/record";
import { createConnectionSchema, type CreateConnection } from "@/lib/connections/schemas";
import type { Db } from "@/lib/db/client";
import { connections } from "@/lib/db/schema";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { getKind, PROVIDERS, type ConnectionKind, type CredentialValues, type KindSpec, type Mode } from "@/lib/providers";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { unique } from "./db";

/** Every provider/kind pair of the registry (spec section 1). */
export const PROVIDER_KINDS: readonly (readonly [string, ConnectionKind])[] = PROVIDERS.flatMap((provider) =>
  provider.kinds.map((kind) => [provider.slug, kind.kind] as const),
);

/** A fresh merchant with its owner; returns the merchant id. */
export async function newMerchant(db: Db): Promise<string> {
  const account = unique("conn");
  const created = await createMerchantWithOwner(
    db,
    signUpSchema.parse({
      name: "Olga Owner",
      email: `${account}@example.com`,
      password: "correct-horse-42",
      merchantName: "Olga Ltd",
      commerceAccount: account,
    }),
  );
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
  return created.value.merchant.id;
}

export type KeyOptions = { mode?: Mode; scope?: ApiKeyScope };

/** A fresh merchant with one API key: a test key with full access unless asked otherwise (live invoices need a live key). */
export async function newMerchantWithKey(db: Db, options: KeyOptions = {}): Promise<{ merchantId: string; key: string; keyId: string }> {
  const merchantId = await newMerchant(db);
  const { key, summary } = await createApiKey(db, { merchantId, name: "integration", ...options });
  return { merchantId, key, keyId: summary.id };
}

export type Scope = { db: Db; merchantId: string; actor: Actor; vaultKey: Buffer };

export function scopeFor(db: Db, merchantId: string, vaultKey: Buffer = randomBytes(32), label = "Olga Owner <olga@example.com>"): Scope {
  return { db, merchantId, actor: { label }, vaultKey };
}

export function kindSpec(provider: string, kind: string): KindSpec {
  const spec = getKind(provider, kind);
  if (!spec) throw new Error(`setup: no kind ${provider}/${kind}`);
  return spec;
}

export function secretFieldIds(provider: string, kind: string): string[] {
  return kindSpec(provider, kind)
    .fields.filter((f) => f.secret)
    .map((f) => f.id);
}

/** Parses create input exactly as the form and the API do; throws with the issues when refused. */
export function parseCreate(attributes: Record<string, unknown>): CreateConnection {
  const parsed = createConnectionSchema.safeParse(attributes);
  if (!parsed.success) throw new Error(`setup: ${JSON.stringify(parsed.error.issues)}`);
  return parsed.data;
}

export function createAttributes(
  provider: string,
  kind: ConnectionKind,
  mode: Mode = "test",
  overrides: { label?: string; credentials?: CredentialValues } = {},
) {
  return {
    provider,
    kind,
    label: overrides.label ?? unique(`${provider} ${kind}`),
    mode,
    credentials: overrides.credentials ?? sampleCredentials(provider, kind, mode),
    constants: {},
  };
}

/**
 * An edit as the dashboard form sends it: every attribute named, untouched ones undefined.
 * (A body that leaves attributes out is refused by updateConnectionSchema; see connections-api.test.ts.)
 */
export function editAttributes(changes: Record<string, unknown>): Record<string, unknown> {
  return { label: undefined, mode: undefined, enabled: undefined, credentials: undefined, constants: undefined, ...changes };
}

export async function rawConnectionRow(db: Db, id: string) {
  const [row] = await db.select().from(connections).where(eq(connections.id, id));
  if (!row) throw new Error(`no row ${id}`);
  return row;
}

/**
 * The forms a secret could take when it leaks into stored or served JSON: the value itself, its
 * JSON-escaped form (PEM newlines become \n), and for key files every long base64 line.
 */
function leakForms(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1)]);
  for (const line of secret.split("\n")) if (line.length >= 16 && !line.startsWith("-----")) forms.add(line);
  return [...forms];
}

export function leaksIn(haystack: string, secrets: readonly string[]): string[] {
  return secrets.flatMap((s) => leakForms(s).filter((form) => haystack.includes(form)));
}
