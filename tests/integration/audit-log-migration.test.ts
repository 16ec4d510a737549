import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "@/lib/db/client";

/**
 * Migration 0015: connection_audit's rows move into the general audit_log (family-prefixed action,
 * the person or API key as actor, the connection as target), then the old table goes. Written with
 * SQL because connection_audit no longer exists in lib/db/schema.ts.
 */
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function migrationsUpTo(tag: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), "po-migrations-"));
  folders.push(folder);
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number; tag: string }[] };
  const last = journal.entries.find((entry) => entry.tag === tag)!.idx;
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.idx <= last) }));
  return folder;
}

describe("migration 0015_mfa_audit_log", () => {
  it("copies every connection_audit row into audit_log and drops the old table", async () => {
    const client = await PGlite.create();
    try {
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: migrationsUpTo("0014_refunds") });
      await client.exec(`
        insert into merchants (id, name, commerce_account) values ('mer_1', 'M', 'm1');
        insert into connection_audit (id, connection_id, merchant_id, actor, action, changes, created_at) values
          ('aud_1', 'conn_1', 'mer_1', 'Ada <ada@example.com>', 'created', '["label","credentials.secret_key"]', '2026-01-02T03:04:05Z'),
          ('aud_2', 'conn_1', 'mer_1', 'API key key_abc', 'tested', '["ok"]', '2026-01-03T03:04:05Z');
      `);
      await migrate(db, { migrationsFolder });
      const rows = await client.query(
        "select id, merchant_id, actor_type, actor_id, actor_label, action, target_type, target_id, changes from audit_log order by id",
      );
      expect(rows.rows).toEqual([
        {
          id: "aud_1",
          merchant_id: "mer_1",
          actor_type: "user",
          actor_id: null,
          actor_label: "Ada <ada@example.com>",
          action: "connection.created",
          target_type: "connection",
          target_id: "conn_1",
          changes: ["label", "credentials.secret_key"],
        },
        {
          id: "aud_2",
          merchant_id: "mer_1",
          actor_type: "api_key",
          actor_id: "key_abc",
          actor_label: "API key key_abc",
          action: "connection.tested",
          target_type: "connection",
          target_id: "conn_1",
          changes: ["ok"],
        },
      ]);
      const old = await client.query("select to_regclass('connection_audit') as t");
      expect(old.rows).toEqual([{ t: null }]);
    } finally {
      await client.close();
    }
  });
});
