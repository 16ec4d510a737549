import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "@/lib/db/client";

/**
 * Migration 0003: each service default becomes a one-entry routing order and routed
 * invoices get routing_reason 'routing_order'. The rows are written with SQL because the table they
 * start in no longer exists in lib/db/schema.ts, so no lib/ function can make them.
 */
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A copy of the migrations that stops after `last` (0-based journal index). */
function migrationsUpTo(last: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), "po-migrations-"));
  folders.push(folder);
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.idx <= last) }));
  return folder;
}

describe("migration 0003_routing_orders", () => {
  it("turns each service default into a one-entry routing order and records existing invoices as routed by it", async () => {
    const client = await PGlite.create();
    try {
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: migrationsUpTo(2) });
      await client.exec(`
        insert into merchants (id, name, commerce_account) values ('mer_1', 'M', 'm1');
        insert into connections (id, merchant_id, provider, kind, label, mode, public_credentials, secret_credentials, secret_hints)
          values ('conn_old', 'mer_1', 'provider-b', 'h2h', 'Old', 'test', '{}', 'x', '{}'),
                 ('conn_new', 'mer_1', 'provider-f', 'h2h', 'New', 'test', '{}', 'x', '{}');
        insert into connection_service_defaults (merchant_id, service, mode, connection_id)
          values ('mer_1', 'payment_card_eur_hpp', 'test', 'conn_new');
        insert into invoices (id, merchant_id, direction, reference_id, request_hash, connection_id, status, service, currency,
                              amount, amount_is_number, amount_minor, test_mode)
          values ('cpi_1', 'mer_1', 'payment', 'r1', 'h', 'conn_new', 'created', 'payment_card_eur_hpp', 'EUR', '1', false, 100, true);
      `);
      await migrate(db, { migrationsFolder: migrationsUpTo(3) });
      const orders = await client.query("select merchant_id, service, mode, connection_ids from routing_orders");
      expect(orders.rows).toEqual([{ merchant_id: "mer_1", service: "payment_card_eur_hpp", mode: "test", connection_ids: ["conn_new"] }]);
      const invoices = await client.query("select routing_reason from invoices");
      expect(invoices.rows).toEqual([{ routing_reason: "routing_order" }]);
      const merchants = await client.query("select allow_live_pins from merchants");
      expect(merchants.rows).toEqual([{ allow_live_pins: false }]);
      const gone = await client.query("select to_regclass('connection_service_defaults') as table");
      expect(gone.rows).toEqual([{ table: null }]);
    } finally {
      await client.close();
    }
  });
});
