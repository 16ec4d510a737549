import { credentialsKey } from "@/lib/vault/vault-key";
import type { Db } from "@/lib/db/client";
import { keyringOf } from "@/lib/vault";
import { resealAll, rotationStatus, type RotationStatus } from "@/lib/vault/rotation";

/**
 * `npm run admin -- rotate-credentials-key [--status]`: with --status, how many values each key
 * seals (key ids only); without, the re-seal pass in the foreground first (what the background
 * job does), then the status. `done` says when CREDENTIALS_KEY_PREVIOUS can be removed.
 */
export async function rotateCredentialsKeyCommand(db: Db, options: { statusOnly: boolean }): Promise<Record<string, unknown>> {
  const keys = credentialsKey();
  const pass = options.statusOnly ? undefined : await resealAll(db, keys);
  const status: RotationStatus = await rotationStatus(db, keys);
  const done = status.remaining === 0 && status.unknown === 0;
  const advice = done
    ? keyringOf(keys).previous.length > 0
      ? "Every value is sealed under CREDENTIALS_KEY: remove CREDENTIALS_KEY_PREVIOUS and restart the instances."
      : "Every value is sealed under CREDENTIALS_KEY."
    : status.remaining > 0
      ? "Values remain under previous keys: keep CREDENTIALS_KEY_PREVIOUS and run this command without --status (or wait for the background job)."
      : "Some values are sealed under keys that are not configured: add those keys to CREDENTIALS_KEY_PREVIOUS, or re-enter those credentials.";
  return { ...(pass ? { pass } : {}), ...status, done, advice };
}
