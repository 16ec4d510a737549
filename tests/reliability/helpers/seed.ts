import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/api-keys/queries";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import { openPostgres, type Db } from "@/lib/db/client";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import type { ConnectionKind } from "@/lib/providers/types";

/** The suite's own handle on the PostgreSQL the instances share (migrations applied). */
export async function openSuiteDb(): Promise<{ db: Db; close: () => Promise<void> }> {
  return openPostgres(process.env.DATABASE_URL!, { max: 4 });
}

export type SeededMerchant = { merchantId: string; account: string; email: string; password: string; key: string; keyId: string };

/** A merchant with its owner and one API key, as sign-up and the API keys page would make them. */
export async function seedMerchant(db: Db): Promise<SeededMerchant> {
  const account = `rel-${randomBytes(5).toString("hex")}`;
  const email = `${account}@example.com`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  const created = await createMerchantWithOwner(db, { email, password, name: "Reliability", merchantName: "Reliability", commerceAccount: account });
  if (!created.ok) throw new Error(`seed merchant: ${JSON.stringify(created.problems)}`);
  const merchantId = created.value.merchant.id;
  const { key, summary } = await createApiKey(db, { merchantId, name: "reliability" });
  return { merchantId, account, email, password, key, keyId: summary.id };
}

/** A test-mode connection made as the dashboard makes it (vault, audit); returns its id. */
export async function seedConnection(db: Db, merchantId: string, provider: string, kind: ConnectionKind, label: string): Promise<string> {
  const input = createConnectionSchema.parse({ provider, kind, label, mode: "test", credentials: sampleCredentials(provider, kind, "test") });
  const result = await createConnection({ db, merchantId, actor: { label: "reliability suite" }, vaultKey: credentialsKey() }, input);
  if (!result.ok) throw new Error(`seed connection: ${JSON.stringify(result.problems)}`);
  return result.value.id;
}

export function apiHeaders(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}`, "Content-Type": "application/vnd.api+json", Accept: "application/vnd.api+json" };
}

/** Polls `probe` until it returns true; the elapsed milliseconds, or throws after `limitMs`. */
export async function timeUntil(probe: () => Promise<boolean>, limitMs: number, stepMs = 20): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await probe()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  throw new Error(`not within ${limitMs} ms`);
}
