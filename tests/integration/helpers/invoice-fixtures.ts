import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { createConnection, deleteConnection, setConnectionEnabled } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import type { ConnectionView } from "@/lib/connections/store";
import type { Db } from "@/lib/db/client";
import { invoices, invoiceStatusHistory, merchants, users } from "@/lib/db/schema";
import type { Merchant } from "@/lib/identity/membership";
import { addTeamMember } from "@/lib/merchants/team";
import type { ConnectionKind, Mode } from "@/lib/providers";
import { createAttributes, newMerchantWithKey, parseCreate, scopeFor, type KeyOptions } from "./connection-fixtures";
import { unique } from "./db";

export type InvoiceMerchant = { merchant: Merchant; merchantId: string; key: string; keyId: string; account: string };

/** A fresh merchant with an API key (test mode unless asked otherwise); its commerce account goes into every invoice body. */
export async function invoiceMerchant(db: Db, keyOptions: KeyOptions = {}): Promise<InvoiceMerchant> {
  const { merchantId, key, keyId } = await newMerchantWithKey(db, keyOptions);
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw new Error("setup: merchant missing");
  return { merchant, merchantId, key, keyId, account: merchant.commerceAccount };
}

/**
 * The app's own credentials key (CREDENTIALS_KEY of tests/integration/setup.ts), so processing
 * can open what these fixtures seal, and enabling and disabling can re-seal secrets.
 */
const VAULT_KEY = credentialsKey();

export type ConnectOptions = { mode?: Mode; constants?: Record<string, string>; vaultKey?: Buffer };

/** A connection made through lib/connections exactly as the dashboard makes it. */
export async function connect(
  db: Db,
  merchantId: string,
  provider: string,
  kind: ConnectionKind,
  { mode = "test", constants = {}, vaultKey = VAULT_KEY }: ConnectOptions = {},
): Promise<ConnectionView> {
  const input = parseCreate({ ...createAttributes(provider, kind, mode, { label: unique(`${provider} ${kind} ${mode}`) }), constants });
  const created = await createConnection(scopeFor(db, merchantId, vaultKey), input);
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
  return created.value;
}

export async function disable(db: Db, merchantId: string, id: string): Promise<void> {
  const result = await setConnectionEnabled(scopeFor(db, merchantId, VAULT_KEY), id, false);
  if (!result?.ok) throw new Error(`setup: could not disable ${id}`);
}

export async function remove(db: Db, merchantId: string, id: string): Promise<void> {
  if (!(await deleteConnection(scopeFor(db, merchantId, VAULT_KEY), id))) throw new Error(`setup: could not delete ${id}`);
}

type Body = { data: { type: string; attributes: Record<string, unknown> } & Record<string, unknown> };

/** A copy of an example body for this account, with attribute overrides (undefined removes one). */
export function bodyFor(example: unknown, account: string, overrides: Record<string, unknown> = {}): Body {
  const body = structuredClone(example) as Body;
  const attributes: Record<string, unknown> = { ...body.data.attributes, commerce_account: account, ...overrides };
  for (const [name, value] of Object.entries(attributes)) if (value === undefined) delete attributes[name];
  body.data.attributes = attributes;
  return body;
}

export const newReference = () => `ref-${randomBytes(8).toString("hex")}`;

/** JSON of everything stored about an invoice (row and history), for leak checks. */
export async function storedInvoiceJson(db: Db, id: string): Promise<string> {
  const rows = await db.select().from(invoices).where(eq(invoices.id, id));
  const history = await db.select().from(invoiceStatusHistory).where(eq(invoiceStatusHistory.invoiceId, id));
  return JSON.stringify({ rows, history }, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

export async function countInvoices(db: Db, merchantId: string, referenceId: string): Promise<number> {
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.referenceId, referenceId)));
  return rows.length;
}

export type TeamMerchant = InvoiceMerchant & { ownerId: string; supportId: string };

/** A merchant with its owner (made with it) and a support member, for tests of who may do what. */
export async function teamMerchant(db: Db): Promise<TeamMerchant> {
  const m = await invoiceMerchant(db);
  const [owner] = await db.select().from(users).where(eq(users.merchantId, m.merchantId));
  if (!owner) throw new Error("setup: owner missing");
  const support = await addTeamMember(db, m.merchantId, { name: "Sam", email: `${unique("sam")}@example.com`, role: "support", password: "support-pass-99" });
  if (!support.ok) throw new Error("setup: support member");
  return { ...m, ownerId: owner.id, supportId: support.value.id };
}
