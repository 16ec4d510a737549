/**
 * Database cost of one invoice creation, piece by piece, on embedded PGlite in this process
 * (sequential, no HTTP): the floor's jsonb insert, insertInvoiceOnce (invoice + history), and
 * createInvoice followed by startCreatedInvoice, as the route does (no job is queued for expiry).
 * `npx tsx --import ./scripts/register-server-only.mjs bench/create-parts.ts [count]` (the stages run in
 * order on one growing table; the machine is shared, so compare stages within one run only)
 */
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { openEmbedded } from "@/lib/db/client";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { validateInvoice } from "@/lib/invoices/contract/validate-invoice";
import { invoiceValues } from "@/lib/invoices/create/invoice-values";
import { requestHash } from "@/lib/invoices/create/request-hash";
import { findRoute } from "@/lib/invoices/create/routing";
import { insertInvoiceOnce } from "@/lib/invoices/create/store";
import { newId } from "@/lib/ids";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { startCreatedInvoice } from "@/lib/processing/after-create";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";

process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");
process.env.LOG_LEVEL = "silent";
process.env.JOBS_WORKERS = "off";
const COUNT = Number(process.argv[2] ?? 2000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "po-create-parts-"));
const handle = await openEmbedded(dir);
const db = handle.db;
const account = "parts";
const created = await createMerchantWithOwner(db, {
  email: "p@example.com",
  password: "bench-password-1",
  name: "P",
  merchantName: "P",
  commerceAccount: account,
});
if (!created.ok) throw new Error("merchant");
const merchant = created.value.merchant;
const scope = { db, merchantId: merchant.id, actor: { label: "bench" }, vaultKey: Buffer.from(process.env.CREDENTIALS_KEY!, "base64") };
await createConnection(
  scope,
  createConnectionSchema.parse({ provider: "provider-b", kind: "h2h", label: "B", mode: "test", credentials: sampleCredentials("provider-b", "h2h", "test") }),
);
await db.execute(
  sql`create table bench_floor (id text primary key, merchant text not null, direction text not null, attributes jsonb not null, created_at timestamptz not null default now())`,
);

const body = () => ({
  data: {
    type: "payment-invoice",
    attributes: {
      service: "payment_card_eur_hpp",
      commerce_account: account,
      currency: "EUR",
      amount: "100.50",
      reference_id: randomUUID(),
      flow: "charge",
      test_mode: true,
      options: { allow_partially: false },
      customer: { name: "Ada", email: "ada@example.com", address: { country: "GB", city: "London" } },
    },
  },
});

async function time(name: string, one: () => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await one();
  const t0 = performance.now();
  for (let i = 0; i < COUNT; i++) await one();
  const ms = (performance.now() - t0) / COUNT;
  console.log(`${name.padEnd(48)} ${ms.toFixed(3)} ms each  (${(1000 / ms).toFixed(0)}/s sequential)`);
}

let n = 0;
await time("floor: one jsonb insert, one unique index", () =>
  db.execute(
    sql`insert into bench_floor (id, merchant, direction, attributes) values (${`f${n++}`}, ${account}, 'payment', ${JSON.stringify(body().data.attributes)}::jsonb)`,
  ),
);
const route = (await findRoute(db, merchant.id, { service: "payment_card_eur_hpp", mode: "test" }))!;
const prepare = () => {
  const b = body();
  const v = validateInvoice("payment", b);
  if (!v.ok) throw new Error("invalid");
  const p = invoiceValues({
    id: newId("cpi"),
    merchantId: merchant.id,
    direction: "payment",
    data: b.data,
    envelope: v.value,
    route,
    hash: requestHash(b.data),
  });
  if (!p.ok) throw new Error("values");
  return p.value;
};
await time("JS only: validate, hash, invoiceValues", async () => prepare());
await time("insertInvoiceOnce only (invoice + history)", () => insertInvoiceOnce(db, prepare()));
await time("createInvoice (validate, route, insert + history)", () => createInvoice(db, merchant, "payment", body()));
await time("createInvoice + startCreatedInvoice", async () => startCreatedInvoice(db, await createInvoice(db, merchant, "payment", body())));
await handle.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
