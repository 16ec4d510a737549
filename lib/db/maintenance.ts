import "server-only";
import { sql } from "drizzle-orm";
import { isEmbedded } from "@/lib/config";
import type { Db } from "./client";

/**
 * What autovacuum's analyze does on PostgreSQL, for the embedded PGlite, which runs no autovacuum:
 * without it the planner never has statistics and guesses (a fresh guess put Pay's card lookup on
 * the e-mail index, reading every attempt of the merchant). ANALYZE reads a bounded sample of each
 * table (30,000 rows at the default target), so a run costs little however large the data; the
 * background jobs run it at start and every ten minutes (lib/server-jobs.ts). On PostgreSQL it
 * does nothing: autovacuum is the server's.
 */
export async function analyzeEmbedded(db: Db): Promise<number> {
  if (!isEmbedded()) return 0;
  await db.execute(sql`analyze`);
  return 0;
}
