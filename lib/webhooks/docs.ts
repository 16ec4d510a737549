import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The docs page shows the verification function as the source text of verify-example.ts, the very
 * file the integration tests verify real deliveries with, so the documentation cannot drift.
 */
export function verifyExampleSource(): string {
  return readFileSync(path.join(/*turbopackIgnore: true*/ process.cwd(), "lib/webhooks/verify-example.ts"), "utf8").trimEnd();
}
