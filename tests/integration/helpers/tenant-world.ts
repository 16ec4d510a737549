import { createRefund } from "@/lib/refunds/create-refund";
import { applyDisputeReport } from "@/lib/disputes/apply-report";
import { uploadFile } from "@/lib/disputes/files";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, getTableColumns, getTableName, inArray, is, sql, type SQL } from "drizzle-orm";
import { PgTable, type PgColumn } from "drizzle-orm/pg-core";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { createGeneratedKeyPair } from "@/lib/connections/key-files";
import type { ConnectionView } from "@/lib/connections/store";
import { credentialsKey } from "@/lib/vault/vault-key";
import { encryptSecret } from "@/lib/vault";
import { newId } from "@/lib/ids";
import type { Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { findViewer } from "@/lib/identity/membership";
import { createApiKey } from "@/lib/api-keys/queries";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { createInvite } from "@/lib/merchants/invites";
import { payWithCard } from "@/lib/processing/engine";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { unique } from "./db";
import { connect, newReference, teamMerchant, type TeamMerchant } from "./invoice-fixtures";
import { addTeamMember } from "@/lib/merchants/team";
import { addBlocklistEntry } from "@/lib/risk/store";
import type { Role } from "@/lib/db/schema";

/**
 * One merchant's worth of everything an id can name ("Tenants and roles"): an owner and a
 * support member, a pending invitation, API keys (test, the one of TeamMerchant, and live), connections (Provider A for invoices, Provider E
 * with a downloadable public key), a routing order, a webhook endpoint (made before the payment, so
 * the payment's webhook events go to it), a paid payment (so it has attempts and webhook events), a payout waiting to be processed and an unused generated key pair.
 */
export type TenantWorld = TeamMerchant & {
  name: string;
  /** A live key: everything else here is test mode, so this key finds none of it. */
  liveKey: string;
  a: ConnectionView;
  e: ConnectionView;
  /** Only merchant B gets one: a service (CHF) the other merchant has no connection for. */
  z?: ConnectionView;
  paymentId: string;
  payoutId: string;
  /** Their reference_ids (search finds invoices by them). */
  paymentReference: string;
  payoutReference: string;
  refundId: string;
  /** A dispute of the paid payment (dp_…), as its provider notified it, and an uploaded evidence file (file_…). */
  disputeId: string;
  fileId: string;
  /** The card the paid payment saved (a payment method, pm_…). */
  paymentMethodId: string;
  cancelablePayoutId: string;
  eventId: string;
  /** The webhook endpoint the payment's events went to (a closed loopback port: nothing listens). */
  endpointId: string;
  inviteId: string;
  generatedKeyId: string;
  routingOrderId: string;
  /** A test-mode blocklist entry (bl_…). */
  blocklistId: string;
  /** One member of every role of lib/identity/permissions.ts (the owner and support member above among them). */
  members: Record<Role, string>;
  /** Text only this merchant's data contains (labels, references, e-mails): never in another merchant's answers. */
  markers: string[];
};

const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };

type Body = { data: { attributes: Record<string, unknown> } };

async function invoiceFrom(db: Db, m: TeamMerchant, template: "a-payment" | "a-payout", options: Record<string, unknown>, fields?: Record<string, unknown>) {
  const reference = newReference();
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: reference }) as Body;
  body.data.attributes.options = options;
  body.data.attributes.test_mode = true;
  // Every merchant's payment has the same customer, e-mail included: search by either must stay within the merchant.
  if (template === "a-payment") body.data.attributes.customer = { ...(body.data.attributes.customer as object), email: "olena.kovalenko@example.com" };

  if (fields) body.data.attributes.fields = fields;
  const created = await createInvoice(db, m.merchant, template === "a-payment" ? "payment" : "payout", body);
  if (created.kind !== "created") throw new Error(`setup: ${template}: ${JSON.stringify(created)}`);
  return { id: created.invoice.id, reference };
}

export async function seedTenant(db: Db, name: string, options: { withProviderZ?: boolean } = {}): Promise<TenantWorld> {
  const m = await teamMerchant(db);
  const a = await connect(db, m.merchantId, "provider-a", "h2h");
  const e = await connect(db, m.merchantId, "provider-e", "h2h");
  const z = options.withProviderZ ? await connect(db, m.merchantId, "provider-z", "h2h") : undefined;
  const owner = await findViewer(db, m.ownerId);
  if (!owner) throw new Error("setup: owner viewer");

  const service = a.services[0]!;
  const saved = await saveRoutingOrder(db, { merchantId: m.merchantId, actor: { label: `${name} setup` } }, { service, mode: "test", connectionIds: [a.id] });
  if (!saved.ok) throw new Error(`setup: routing ${JSON.stringify(saved.problems)}`);

  const endpointUrl = `http://127.0.0.1:9/${unique("hooks")}`;
  const endpoint = await createEndpoint(db, m.merchantId, {
    url: endpointUrl,
    description: `Hooks of ${name}`,
    enabled: true,
    allEvents: true,
    eventTypes: [],
  });
  if (!endpoint.ok) throw new Error(`setup: endpoint ${JSON.stringify(endpoint.problems)}`);

  const payment = await invoiceFrom(db, m, "a-payment", {});
  await payWithCard(db, payment.id, CARD);
  const payout = await invoiceFrom(db, m, "a-payout", { auto_process: false }, { card_number: "4242424242424242" });
  // A second waiting payout, for the cases that cancel one (the first stays for Process payout).
  const cancelable = await invoiceFrom(db, m, "a-payout", { auto_process: false }, { card_number: "4242424242424242" });
  const refund = await createRefund(db, {
    merchantId: m.merchantId,
    invoiceId: payment.id,
    body: { data: { type: "refund", attributes: { reference_id: unique("refund"), amount: "1.00" } } },
    testOnly: false,
    createdBy: "setup",
  });
  if (refund.kind !== "created") throw new Error(`setup: refund ${JSON.stringify(refund)}`);

  // A saved card of the paid payment, written as lib/payment-methods writes one, for the id probes.
  const [method] = await db
    .insert(schema.paymentMethods)
    .values({
      id: newId("pm"),
      merchantId: m.merchantId,
      testMode: true,
      customerReference: `customer-of-${name}`,
      brand: "visa",
      lastFour: "4242",
      expiryMonth: 12,
      expiryYear: 2030,
      provider: "provider-a",
      connectionId: a.id,
      tokenSealed: encryptSecret(`atok_${unique("token")}`, credentialsKey()),
      sourceInvoiceId: payment.id,
    })
    .returning();
  const [attempt] = await db.select().from(schema.invoiceAttempts).where(eq(schema.invoiceAttempts.invoiceId, payment.id));
  const disputeReference = unique(`dispute-of-${name}`);
  const dispute = await applyDisputeReport(
    db,
    { id: a.id, merchantId: m.merchantId, mode: "test" },
    {
      disputeReference,
      paymentKey: attempt!.idempotencyKey,
      amountMinor: 100n,
      currency: "UAH",
      reason: "fraudulent",
      providerReason: "fraud",
      status: "needs_response",
      evidenceDueBy: new Date(Date.now() + 7 * 24 * 60 * 60_000),
    },
    "setup",
  );
  if (dispute.kind !== "created") throw new Error(`setup: dispute ${dispute.kind}`);
  const file = await uploadFile(db, {
    merchantId: m.merchantId,
    testMode: true,
    purpose: "dispute_evidence",
    file: new File([new TextEncoder().encode(`%PDF-1.4\n${name}\n`)], `evidence-of-${name}.pdf`),
    createdBy: "setup",
  });
  if (file.kind !== "created") throw new Error("setup: file");
  const [event] = await db.select().from(schema.webhookEvents).where(eq(schema.webhookEvents.invoiceId, payment.id));
  if (!event) throw new Error("setup: the paid payment wrote no webhook event");

  const inviteEmail = `${unique("invitee")}@example.com`;
  const invited = await createInvite(db, owner, { name: `Invitee of ${name}`, email: inviteEmail, role: "support" });
  if (!invited.ok) throw new Error(`setup: invite ${JSON.stringify(invited.problems)}`);
  const [invite] = await db.select().from(schema.invites).where(eq(schema.invites.merchantId, m.merchantId));

  const generated = await createGeneratedKeyPair(db, m.merchantId, credentialsKey());
  const blocked = await addBlocklistEntry(
    db,
    { merchantId: m.merchantId, actor: { label: "setup" }, mode: "test" },
    { kind: "email", value: `${unique("blocked")}@example.com`, note: "" },
  );
  const liveKey = (await createApiKey(db, { merchantId: m.merchantId, name: `${name} live`, mode: "live" })).key;
  const members: Record<Role, string> = { owner: m.ownerId, support: m.supportId, developer: "", finance: "", read_only: "" };
  for (const role of ["developer", "finance", "read_only"] as const) {
    const added = await addTeamMember(db, m.merchantId, {
      name: `${role} of ${name}`,
      email: `${unique(role.replace("_", "-"))}@example.com`,
      role,
      password: "member-pass-99",
    });
    if (!added.ok) throw new Error(`setup: ${role} member`);
    members[role] = added.value.id;
  }
  const users = await db.select().from(schema.users).where(eq(schema.users.merchantId, m.merchantId));

  const routingService = z ? z.services[0]! : service;
  return {
    ...m,
    name,
    liveKey,
    a,
    e,
    z,
    paymentId: payment.id,
    payoutId: payout.id,
    paymentReference: payment.reference,
    payoutReference: payout.reference,
    refundId: refund.refund.id,
    disputeId: dispute.dispute.id,
    fileId: file.file.id,
    paymentMethodId: method!.id,
    cancelablePayoutId: cancelable.id,
    eventId: event.id,
    endpointId: endpoint.value.id,
    inviteId: invite!.id,
    generatedKeyId: generated.id,
    routingOrderId: `${routingService}:test`,
    blocklistId: blocked.id,
    members,
    markers: [
      m.account,
      endpointUrl,
      a.label,
      e.label,
      ...(z ? [z.label] : []),
      payment.reference,
      payout.reference,
      disputeReference,
      inviteEmail,
      ...users.map((u) => u.email),
    ],
  };
}

/**
 * Tables every request may change by design: the rate limiters' counters (a refused request is
 * counted too), and the request log (every request with an API key is logged under the key's own
 * merchant, a refused one too, within a second: lib/request-log; tests/integration/request-log.test.ts).
 */
const NOT_COMPARED = new Set(["rate_limits", "request_log"]);

/**
 * Every row of every table of lib/db/schema.ts that belongs to the merchant, as sorted JSON per
 * table. Tables are found by their columns (merchant_id, invoice_id, connection_id, user_id,
 * event_id); a new table that has none of them makes this throw, so the tests learn about it.
 */
export async function snapshotTenant(db: Db, merchantId: string): Promise<Record<string, string[]>> {
  const ids = async (column: PgColumn, table: unknown, where: SQL) =>
    (
      await db
        .select({ id: column })
        .from(table as PgTable)
        .where(where)
    ).map((r) => r.id as string);
  const invoiceIds = await ids(schema.invoices.id, schema.invoices, eq(schema.invoices.merchantId, merchantId));
  const connectionIds = await ids(schema.connections.id, schema.connections, eq(schema.connections.merchantId, merchantId));
  const userIds = await ids(schema.users.id, schema.users, eq(schema.users.merchantId, merchantId));
  const eventIds = await ids(schema.webhookEvents.id, schema.webhookEvents, eq(schema.webhookEvents.merchantId, merchantId));
  // Mail belongs to no merchant: the merchant's is what was sent to its members and invitees (other test files share CI's database).
  const recipients = [
    ...(await ids(schema.users.email, schema.users, eq(schema.users.merchantId, merchantId))),
    ...(await ids(schema.invites.email, schema.invites, eq(schema.invites.merchantId, merchantId))),
  ];
  const within = (column: PgColumn, list: string[]) => inArray(column, list.length ? list : ["-none-"]);

  const parts: SQL[] = [];
  const names: string[] = [];
  const tables = Object.values(schema).filter((value) => is(value, PgTable)) as unknown as PgTable[];
  for (const table of tables) {
    const name = getTableName(table);
    if (NOT_COMPARED.has(name)) continue;
    const columns = getTableColumns(table) as Record<string, PgColumn>;
    let where: SQL;
    if (table === (schema.merchants as unknown)) where = eq(schema.merchants.id, merchantId);
    else if (columns.merchantId) where = eq(columns.merchantId, merchantId);
    else if (columns.invoiceId) where = within(columns.invoiceId, invoiceIds);
    else if (columns.connectionId) where = within(columns.connectionId, connectionIds);
    else if (columns.userId) where = within(columns.userId, userIds);
    else if (columns.eventId) where = within(columns.eventId, eventIds);
    else if (table === (schema.mailOutbox as unknown)) where = within(schema.mailOutbox.to, recipients);
    else throw new Error(`snapshotTenant: table ${name} has no merchant scope; teach tests/integration/helpers/tenant-world.ts about it`);
    // Each table's rows as JSON text, sorted: all tables in one statement (one round trip, where
    // a query per table made the tenants suites spend most of their time here).
    names.push(name);
    parts.push(
      sql`(select coalesce(json_agg(r.row order by r.row), '[]'::json) from (select row_to_json(x)::text as row from (select * from ${table} where ${where}) x) r) as ${sql.identifier(name)}`,
    );
  }
  const [row] = rowsOf(await db.execute(sql`select ${sql.join(parts, sql`, `)}`));
  const out: Record<string, string[]> = {};
  for (const name of names) {
    const value = row?.[name];
    out[name] = (typeof value === "string" ? JSON.parse(value) : value) as string[];
  }
  return out;
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as Record<string, unknown>[];
}

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** Files under a folder of the repository, as repository-relative paths with forward slashes. */
export function repoFiles(folder: string, keep: (relative: string) => boolean): string[] {
  return walk(path.join(ROOT, folder))
    .map((full) => path.relative(ROOT, full).split(path.sep).join("/"))
    .filter(keep)
    .sort();
}

export function readRepoFile(relative: string): string {
  return readFileSync(path.join(ROOT, relative), "utf8");
}

const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Initialisers of handlers that only refuse a method (405 with Allow, or OPTIONS' 204): lib/api/methods.ts. */
const REFUSER = /^(?:other\b|otherMethods(?:<[^>]*>)?\(|methodNotAllowed(?:<[^>]*>)?\(|listMethods(?:<[^>]*>)?\()/;

/**
 * The HTTP methods a route.ts exports (`export const GET = …`, `export async function POST`,
 * `export const { GET, POST } = …`), each marked `served: false` when its handler only refuses the
 * method (made by lib/api/methods.ts), so it can read no id.
 */
export function routeExports(source: string): { method: string; served: boolean }[] {
  const found = new Map<string, boolean>();
  for (const match of source.matchAll(/export\s+async\s+function\s+([A-Z]+)\b/g)) found.set(match[1]!, true);
  for (const match of source.matchAll(/export\s+const\s+([A-Z]+)\s*=\s*([^\n]*)/g)) found.set(match[1]!, !REFUSER.test(match[2]!.trim()));
  for (const match of source.matchAll(/export\s+const\s+\{([^}]*)\}\s*=\s*([^\n]*)/g)) {
    for (const name of match[1]!.split(","))
      found.set(
        name
          .trim()
          .split(/\s*:\s*/)
          .pop()!,
        !REFUSER.test(match[2]!.trim()),
      );
  }
  return HTTP_METHODS.filter((method) => found.has(method)).map((method) => ({ method, served: found.get(method)! }));
}

/**
 * The functions a "use server" module exports (Next lets such a module export async functions only;
 * an UPPER_CASE constant is no action).
 */
export function exportedActions(source: string): string[] {
  return [...source.matchAll(/export\s+(?:const|async\s+function|function)\s+(\w+)/g)]
    .map((match) => match[1]!)
    .filter((name) => !/^[A-Z][A-Z0-9_]*$/.test(name))
    .sort();
}

/** A route or page folder path has a dynamic segment: [id], [slug], [...rest], [[...path]]. */
export const hasParam = (relative: string) => /\/\[[^/]+\]\//.test(relative);
