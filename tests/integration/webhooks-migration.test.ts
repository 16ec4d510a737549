import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "@/lib/db/client";
import { ENDPOINT_ID } from "@/lib/ids/patterns";

/**
 * The webhook endpoints migration: a merchant's single callback URL becomes one endpoint (all
 * events, enabled) with the merchant's signing secrets; events keep their delivery state and
 * schedule, now per endpoint; events get sequence numbers in the order they were made, and each
 * invoice's counter continues after them. Rows are written with SQL as they were before it.
 */
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
const STEP = journal.entries.find((entry) => entry.tag.endsWith("_webhook_endpoints"))!.idx;

/** A copy of the migrations that stops after `last` (0-based journal index). */
function migrationsUpTo(last: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), "po-migrations-"));
  folders.push(folder);
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, "meta", "_journal.json");
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.idx <= last) }));
  return folder;
}

describe("migration webhook_endpoints", () => {
  it("turns each callback URL and its secrets into an endpoint, keeps every event's delivery state per endpoint, and numbers past events", async () => {
    const client = await PGlite.create();
    try {
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: migrationsUpTo(STEP - 1) });
      await client.exec(`
        insert into merchants (id, name, commerce_account, webhook_url) values
          ('mer_url', 'With URL', 'm1', 'https://shop.example.com/hooks'),
          ('mer_none', 'Without URL', 'm2', null);
        insert into webhook_secrets (id, merchant_id, sealed, created_at, retires_at) values
          ('whs_current', 'mer_url', 'sealed-current', '2026-01-02T00:00:00Z', null),
          ('whs_retiring', 'mer_url', 'sealed-retiring', '2026-01-01T00:00:00Z', '2099-01-01T00:00:00Z'),
          ('whs_orphan', 'mer_none', 'sealed-orphan', '2026-01-01T00:00:00Z', null);
        insert into invoices (id, merchant_id, direction, reference_id, request_hash, status, service, currency, amount, amount_is_number, amount_minor, test_mode)
          values ('cpi_1', 'mer_url', 'payment', 'r1', 'h', 'processed', 'payment_card_eur_hpp', 'EUR', '1', false, 100, true),
                 ('cpi_2', 'mer_none', 'payment', 'r2', 'h', 'expired', 'payment_card_eur_hpp', 'EUR', '1', false, 100, true);
        insert into webhook_events (id, merchant_id, invoice_id, type, invoice, delivery_state, tries, next_try_at, created_at) values
          ('evt_b', 'mer_url', 'cpi_1', 'invoice.status_changed', '{}', 'pending', 2, '2026-01-01T00:05:00Z', '2026-01-01T00:02:00Z'),
          ('evt_a', 'mer_url', 'cpi_1', 'invoice.status_changed', '{}', 'delivered', 1, null, '2026-01-01T00:01:00Z'),
          ('evt_c', 'mer_url', 'cpi_1', 'refund.created', '{}', 'failed', 9, null, '2026-01-01T00:03:00Z'),
          ('evt_test', 'mer_url', null, 'webhook.test', '{}', 'delivered', 1, null, '2026-01-01T00:04:00Z'),
          ('evt_none', 'mer_none', 'cpi_2', 'invoice.status_changed', '{}', 'no_endpoint', 0, null, '2026-01-01T00:01:00Z');
        insert into webhook_deliveries (id, event_id, trigger, url, status_code, duration_ms, succeeded) values
          ('whd_1', 'evt_a', 'automatic', 'https://shop.example.com/hooks', 200, 12, true);
      `);
      await migrate(db, { migrationsFolder: migrationsUpTo(STEP) });

      const endpoints = await client.query<{ id: string; merchant_id: string; url: string; enabled: boolean; event_types: unknown }>(
        "select id, merchant_id, url, enabled, event_types from webhook_endpoints",
      );
      expect(endpoints.rows).toEqual([
        { id: expect.stringMatching(ENDPOINT_ID), merchant_id: "mer_url", url: "https://shop.example.com/hooks", enabled: true, event_types: null },
      ]);
      const endpointId = endpoints.rows[0]!.id;

      const secrets = await client.query("select id, endpoint_id, sealed from webhook_secrets order by id");
      expect(secrets.rows).toEqual([
        { id: "whs_current", endpoint_id: endpointId, sealed: "sealed-current" },
        { id: "whs_retiring", endpoint_id: endpointId, sealed: "sealed-retiring" },
      ]);

      const targets = await client.query("select event_id, endpoint_id, merchant_id, state, tries, next_try_at from webhook_event_targets order by event_id");
      expect(targets.rows).toEqual([
        { event_id: "evt_a", endpoint_id: endpointId, merchant_id: "mer_url", state: "delivered", tries: 1, next_try_at: null },
        { event_id: "evt_b", endpoint_id: endpointId, merchant_id: "mer_url", state: "pending", tries: 2, next_try_at: new Date("2026-01-01T00:05:00Z") },
        { event_id: "evt_c", endpoint_id: endpointId, merchant_id: "mer_url", state: "failed", tries: 9, next_try_at: null },
        { event_id: "evt_test", endpoint_id: endpointId, merchant_id: "mer_url", state: "delivered", tries: 1, next_try_at: null },
      ]);
      expect((await client.query("select endpoint_id from webhook_deliveries")).rows).toEqual([{ endpoint_id: endpointId }]);

      const sequences = await client.query("select id, sequence from webhook_events order by id");
      expect(sequences.rows).toEqual([
        { id: "evt_a", sequence: 1 },
        { id: "evt_b", sequence: 2 },
        { id: "evt_c", sequence: 3 },
        { id: "evt_none", sequence: 1 },
        { id: "evt_test", sequence: null },
      ]);
      expect((await client.query("select id, event_sequence from invoices order by id")).rows).toEqual([
        { id: "cpi_1", event_sequence: 3 },
        { id: "cpi_2", event_sequence: 1 },
      ]);
    } finally {
      await client.close();
    }
  });
});
