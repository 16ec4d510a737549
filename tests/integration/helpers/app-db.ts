import type { Db } from "@/lib/db/client";

let current: Db | undefined;

/** Makes the app's getDb() answer with `db` (see tests/integration/setup.ts); undefined closes it. */
export function setAppDb(db: Db | undefined): void {
  current = db;
}

export function appDb(): Db {
  if (!current) throw new Error("test database not open: call setUpTestDb() in the test file");
  return current;
}
