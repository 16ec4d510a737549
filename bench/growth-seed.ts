/**
 * Growth seeding: fills one merchant with N invoices among many merchants, set
 * based (INSERT … SELECT over generate_series, one statement per chunk), so 10^6 invoices take
 * minutes, not hours. Rows look like what processing leaves: payments and payouts, test and live,
 * a realistic mix of statuses and resolutions, one or two attempts per processed invoice with an
 * exchange log, every status change in invoice_status_history and the last one's
 * `invoice.status_changed` event (stored `no_endpoint`, as for a merchant without a webhook URL).
 *
 * The merchant, its connections and one template invoice go through the real functions
 * (createMerchantWithOwner, createConnection, createInvoice); the seeded rows copy the template's
 * JSON columns, so their shape is the create path's.
 *
 * As a script: `npx tsx --import ./scripts/register-server-only.mjs bench/growth-seed.ts 100000`
 * seeds a fresh PGlite directory (DATA_DIR, else a temp one, kept and printed) or PostgreSQL
 * (DATABASE_URL) and prints how long it took.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/api-keys/queries";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import type { Db } from "@/lib/db/client";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { paymentInvoice } from "./support";

export type GrowthContext = {
  merchantId: string;
  commerceAccount: string;
  apiKey: string;
  testConnectionId: string;
  liveConnectionId: string;
  templateId: string;
  /** The other merchants (ids), each with one connection `conn_<id>`. */
  others: string[];
  /** Invoices seeded so far, per owner ("target" or "others"). */
  seeded: { target: number; others: number };
  /** Run-unique tag inside seeded ids and references. */
  tag: string;
};

export const OTHER_MERCHANTS = 50;
const CHUNK = Number(process.env.GROWTH_CHUNK ?? 25_000);

/** Rows of a raw statement under either driver (PGlite answers { rows }, postgres.js an array). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** The merchant, its test and live connections, an API key, one real invoice as template, and the other merchants. */
export async function setUpGrowth(db: Db): Promise<GrowthContext> {
  process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");
  const tag = randomBytes(3).toString("hex");
  const account = `growth-${tag}`;
  const created = await createMerchantWithOwner(db, {
    email: `${account}@example.com`,
    password: "growth-password-1",
    name: "Growth",
    merchantName: "Growth",
    commerceAccount: account,
  });
  if (!created.ok) throw new Error("growth: could not create the merchant");
  const merchantId = created.value.merchant.id;
  const apiKey = (await createApiKey(db, { merchantId, name: "growth" })).key;
  const scope = { db, merchantId, actor: { label: "growth" }, vaultKey: Buffer.from(process.env.CREDENTIALS_KEY, "base64") };
  const connectionIds: Record<"test" | "live", string> = { test: "", live: "" };
  for (const mode of ["test", "live"] as const) {
    const input = createConnectionSchema.parse({
      provider: "provider-b",
      kind: "h2h",
      label: `B ${mode}`,
      mode,
      credentials: sampleCredentials("provider-b", "h2h", mode),
    });
    const connection = await createConnection(scope, input);
    if (!connection.ok) throw new Error(`growth: could not create the ${mode} connection`);
    connectionIds[mode] = connection.value.id;
  }
  const template = await createInvoice(db, { id: merchantId, commerceAccount: account }, "payment", paymentInvoice(account));
  if (template.kind !== "created") throw new Error(`growth: template invoice not created (${template.kind})`);

  // The other merchants and one connection each, copied from the test connection.
  await db.execute(sql`
    insert into merchants (id, name, commerce_account)
    select 'mer_g' || ${tag} || '_' || k, 'Other ' || k, 'other-' || ${tag} || '-' || k from generate_series(1, ${OTHER_MERCHANTS}) k`);
  await db.execute(sql`
    insert into connections (id, merchant_id, provider, kind, label, mode, enabled, currency, public_credentials, secret_credentials, secret_hints, constants)
    select 'conn_' || m.id, m.id, c.provider, c.kind, c.label, c.mode, true, c.currency, c.public_credentials, c.secret_credentials, c.secret_hints, c.constants
    from merchants m, connections c where m.id like ${`mer_g${tag}_%`} and c.id = ${connectionIds.test}`);
  const others = Array.from({ length: OTHER_MERCHANTS }, (_, k) => `mer_g${tag}_${k + 1}`);
  return {
    merchantId,
    commerceAccount: account,
    apiKey,
    testConnectionId: connectionIds.test,
    liveConnectionId: connectionIds.live,
    templateId: template.invoice.id,
    others,
    seeded: { target: 0, others: 0 },
    tag,
  };
}

/**
 * One chunk: invoices numbered [from, to) of one owner, with their history, attempts and events,
 * in one statement (data-modifying CTEs), so the database does the work without a round trip per row.
 */
async function seedChunk(db: Db, ctx: GrowthContext, owner: "target" | "others", from: number, to: number, mode?: "test" | "live") {
  const prefix = `${ctx.tag}${owner === "target" ? "t" : "o"}`;
  const merchantExpr = owner === "target" ? sql`${ctx.merchantId}::text` : sql`'mer_g' || ${ctx.tag}::text || '_' || (1 + n % ${OTHER_MERCHANTS})`;
  const connectionExpr =
    owner === "target" ? sql`case when test_mode then ${ctx.testConnectionId}::text else ${ctx.liveConnectionId}::text end` : sql`'conn_' || merchant_id`;
  await db.execute(sql`
    with g as (
      select n, random() as r1, random() as r2, random() as r3, random() as r4, random() as r5
      from generate_series(${from}::int, ${to - 1}::int) n
    ), shaped as (
      select n, r5,
        ${merchantExpr} as merchant_id,
        case when r1 < 0.3 then 'payout' else 'payment' end as direction,
        ${mode ? sql`${mode === "test"}::boolean` : sql`r3 < 0.25`} as test_mode,
        -- Newest last: created over the past two years, to the millisecond.
        date_trunc('milliseconds', now() - interval '730 days' * r4 - interval '1 minute') as created_at,
        (500 + floor(r5 * 200000))::bigint as amount_minor,
        case
          when r2 < 0.04 then 'created'
          when r2 < 0.05 then 'processing'
          when r2 < 0.06 then 'process_pending'
          when r2 < 0.62 then 'processed'
          when r2 < 0.63 then 'partially_processed'
          when r2 < 0.77 then 'process_failed'
          when r2 < 0.78 then 'process_error'
          when r2 < 0.95 then 'expired'
          when r2 < 0.96 then 'terminated'
          when r1 >= 0.3 and r2 < 0.98 then 'refunded'
          when r1 >= 0.3 and r2 < 0.99 then 'partially_refunded'
          when r1 >= 0.3 then 'canceled'
          else 'processed'
        end as status
      from g
    ), rows as (
      select s.*,
        case s.direction when 'payout' then 'cpoi_' else 'cpi_' end || ${prefix}::text || '_' || md5(${prefix}::text || n) as id,
        ${connectionExpr} as connection_id,
        case
          when status in ('processed', 'partially_processed', 'refunded', 'partially_refunded', 'canceled') then 'ok'
          when status = 'process_failed' then (array['issuer_decline', 'insufficient_funds', 'invalid_cvv', 'auth_3ds_failed'])[1 + floor(r5 * 4)::int]
          when status = 'expired' then 'expired'
          when status = 'process_error' then 'provider_unavailable'
          when status = 'terminated' then 'general_error'
        end as resolution,
        case when status in ('created', 'expired') then 0 when status = 'process_failed' and r5 < 0.3 then 2 else 1 end as attempts
      from shaped s
    ), inv as (
      insert into invoices (id, merchant_id, direction, reference_id, request_hash, connection_id, routing_reason,
        processed_amount_minor, attempts_count, status, resolution, service, currency, amount, amount_is_number, amount_minor,
        test_mode, flow, options, customer, resolved_customer, resolved_customer_sources, gateway_options, service_fields,
        card_number_masked, card_last_four, request_id, expires_at, created_at, updated_at)
      select r.id, r.merchant_id, r.direction, md5('ref' || r.id)::uuid::text, encode(sha256(r.id::bytea), 'hex'), r.connection_id,
        'routing_order',
        case when r.status in ('processed', 'refunded', 'partially_refunded', 'canceled') then r.amount_minor
             when r.status = 'partially_processed' then r.amount_minor / 2 end,
        r.attempts, r.status, r.resolution,
        case r.direction when 'payout' then 'payment_card_uah' else t.service end,
        case r.direction when 'payout' then 'UAH' else t.currency end,
        to_char(r.amount_minor / 100.0, 'FM999999990.00'), false, r.amount_minor, r.test_mode,
        case r.direction when 'payout' then null else t.flow end,
        t.options, t.customer,
        -- Customers vary as they would (search by e-mail and name): one of 20 first names and a number, 200,000 e-mails.
        jsonb_set(jsonb_set(t.resolved_customer, '{name}', to_jsonb((array['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Ken', 'Dennis',
          'Margaret', 'Frances', 'John', 'Radia', 'Tim', 'Linus', 'Guido', 'Bjarne', 'Niklaus', 'Leslie', 'Shafi', 'Whitfield'])[1 + r.n % 20]
          || ' ' || lpad((r.n % 100000)::text, 5, '0'))), '{email}', to_jsonb('customer' || (r.n % 200000) || '@example.com')),
        t.resolved_customer_sources, t.gateway_options, t.service_fields,
        case r.direction when 'payout' then '411111******' || lpad((r.n % 10000)::text, 4, '0') end,
        case r.direction when 'payout' then lpad((r.n % 10000)::text, 4, '0') end,
        'req_' || md5(r.id), r.created_at + interval '30 minutes', r.created_at,
        r.created_at + case when r.status = 'created' then interval '0' else interval '40 seconds' end
      from rows r, invoices t where t.id = ${ctx.templateId}
      returning id, merchant_id, direction, reference_id, status, resolution, service, currency, amount, amount_minor, test_mode,
        options, customer, connection_id, attempts_count, created_at, updated_at
    ), steps as (
      select inv.*, case
          when status = 'created' then 1
          when status in ('expired', 'processing') then 2
          when status in ('refunded', 'partially_refunded', 'canceled') then 4
          else 3 end as last_step
      from inv
    ), history as (
      insert into invoice_status_history (invoice_id, from_status, to_status, resolution, reason, request_id, at)
      select s.id, v.from_status, v.to_status, case when v.step = s.last_step then s.resolution end, v.reason,
        case when v.step = 1 then 'req_' || md5(s.id) end, s.created_at + v.step * interval '10 seconds'
      from steps s cross join lateral (values
        (1, null, 'created', 'invoice created'),
        (2, 'created', case when s.status = 'expired' then 'expired' else 'processing' end,
            case when s.status = 'expired' then 'lifetime elapsed' else 'payment request' end),
        (3, 'processing', case when s.last_step = 4 then 'processed' else s.status end, 'provider answer'),
        (4, 'processed', s.status, 'merchant request')
      ) v(step, from_status, to_status, reason)
      where v.step <= s.last_step
      returning 1
    ), attempts as (
      insert into invoice_attempts (id, invoice_id, seq, connection_id, reason, status, resolution, provider_reference,
        idempotency_key, processed_amount_minor, fee_minor, message, exchanges, latency_ms, started_at, finished_at)
      select 'att_' || md5(i.id || a.seq), i.id, a.seq, i.connection_id,
        case when a.seq = 1 then 'routing_order' else 'cascaded' end,
        case
          when a.seq < i.attempts_count then 'soft_failed'
          when i.status = 'processing' then 'in_flight'
          when i.status = 'process_pending' then 'pending'
          when i.status = 'process_error' then 'unknown'
          when i.status in ('process_failed', 'terminated') then 'declined'
          else 'succeeded' end,
        case when a.seq = i.attempts_count then i.resolution else 'provider_unavailable' end,
        'pr_' || substr(md5(i.id || a.seq), 1, 16),
        'att_' || md5(i.id || a.seq),
        case when i.status in ('processed', 'refunded', 'partially_refunded', 'canceled') and a.seq = i.attempts_count then i.amount_minor end,
        case when i.status in ('processed', 'refunded', 'partially_refunded', 'canceled') and a.seq = i.attempts_count then i.amount_minor / 100 end,
        case when i.status = 'process_failed' then 'Declined by issuer' end,
        jsonb_build_array(jsonb_build_object(
          'at', to_char(i.created_at + interval '20 seconds', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'method', 'POST', 'url', 'https://sandbox.provider-b.example/v1/payments', 'status', 200, 'durationMs', 180,
          'requestHeaders', jsonb_build_object('content-type', 'application/json', 'authorization', '[redacted]'),
          'requestBody', jsonb_build_object('amount', i.amount_minor, 'currency', 'EUR', 'reference', i.id, 'card', '411111******1111'),
          'responseBody', jsonb_build_object('id', 'pr_' || substr(md5(i.id || a.seq), 1, 16), 'status', 'ok'))),
        -- Provider latency: mostly 100-400 ms, a tail to a few seconds.
        (80 + floor(random() * 320) + case when random() < 0.05 then floor(random() * 4000) else 0 end)::int,
        i.created_at + interval '20 seconds', i.created_at + interval '21 seconds'
      from inv i cross join lateral generate_series(1, i.attempts_count) a(seq)
      returning 1
    )
    insert into webhook_events (id, merchant_id, invoice_id, type, invoice, created_at, updated_at)
    select 'evt_' || md5(i.id), i.merchant_id, i.id, 'invoice.status_changed',
      jsonb_build_object('id', i.id, 'merchantId', i.merchant_id, 'direction', i.direction, 'referenceId', i.reference_id,
        'status', i.status, 'resolution', i.resolution, 'service', i.service, 'currency', i.currency, 'amount', i.amount,
        'amountMinor', i.amount_minor::text, 'testMode', i.test_mode, 'options', i.options, 'customer', i.customer,
        'createdAt', i.created_at, 'updatedAt', i.updated_at),
      i.updated_at, i.updated_at
    from inv i where i.status <> 'created'
  `);
}

/** Tops the merchant up to `target` invoices and the other merchants up to `others` in all, in chunks. */
export async function growTo(db: Db, ctx: GrowthContext, target: number, others: number, onProgress?: (done: number, total: number) => void) {
  const work: ["target" | "others", number, number][] = [];
  for (const [owner, goal] of [
    ["target", target],
    ["others", others],
  ] as const) {
    for (let from = ctx.seeded[owner]; from < goal; from += CHUNK) work.push([owner, from, Math.min(goal, from + CHUNK)]);
  }
  const total = work.reduce((n, [, from, to]) => n + to - from, 0);
  let done = 0;
  for (const [owner, from, to] of work) {
    await seedChunk(db, ctx, owner, from, to);
    ctx.seeded[owner] = to;
    done += to - from;
    onProgress?.(done, total);
  }
  await db.execute(sql`analyze`);
}

/**
 * Tops the merchant's invoices of one mode up to `rows` (seeded in that mode only, numbered after
 * the ones seeded so far), so an export of that mode's invoices has that many rows.
 */
export async function topUpMode(
  db: Db,
  ctx: GrowthContext,
  mode: "test" | "live",
  rows: number,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const [held] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from invoices where merchant_id = ${ctx.merchantId} and test_mode = ${mode === "test"}`),
  );
  const missing = Math.max(0, rows - held!.n);
  for (let done = 0; done < missing;) {
    const chunk = Math.min(CHUNK, missing - done);
    await seedChunk(db, ctx, "target", ctx.seeded.target, ctx.seeded.target + chunk, mode);
    ctx.seeded.target += chunk;
    done += chunk;
    onProgress?.(done, missing);
  }
  if (missing > 0) await db.execute(sql`analyze invoices`);
  return missing;
}

async function main() {
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  const { openEmbedded, openPostgres } = await import("@/lib/db/client");
  const size = Number(process.argv[2] ?? 1000);
  if (!Number.isInteger(size) || size < 1) throw new Error("usage: growth-seed.ts <invoices for the merchant> [<invoices for the others>]");
  const others = Number(process.argv[3] ?? size);
  const url = process.env.DATABASE_URL;
  const dir = process.env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "po-growth-"));
  const handle = url ? await openPostgres(url) : await openEmbedded(dir);
  try {
    const started = performance.now();
    const ctx = await setUpGrowth(handle.db);
    await growTo(handle.db, ctx, size, others, (done, total) => process.stdout.write(`\r${done}/${total} invoices`));
    console.log(
      `\nseeded ${size} invoices for ${ctx.merchantId} (${ctx.commerceAccount}) and ${others} for ${OTHER_MERCHANTS} other merchants in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(url ? `database: ${url.replace(/\/\/[^@]*@/, "//")}` : `DATA_DIR=${dir}`);
  } finally {
    // createConnection started the cache invalidation listener (DATABASE_URL names PostgreSQL): closed, the script ends.
    const { stopCacheInvalidation } = await import("@/lib/cache/invalidation");
    await stopCacheInvalidation();
    await handle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
