import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { callbackUrl } from "@/lib/callbacks/url";
import { credentialsKey } from "@/lib/vault/vault-key";
import { revealCredentials } from "@/lib/connections/store";
import { connections } from "@/lib/db/schema";
import { defineTask } from "@/lib/jobs/task";
import { logger } from "@/lib/logger";
import type { CredentialValues } from "@/lib/providers";
import { getProviderServer } from "@/lib/providers/server/servers";
import { findRecordByReference } from "@/lib/sandbox/records";

/** How long the service may take to answer a sandbox's callback. */
const CALLBACK_TIMEOUT_MS = 10_000;

/**
 * `sandbox-callback`: sends one sandbox callback: the provider's notification about its record
 * as the record is NOW (a job that runs late tells the latest state), signed in the provider's own
 * scheme with the connection's credentials or the provider's key, POSTed to
 * `<APP_URL>/api/callbacks/<slug>/<connection id>`. Test-mode connections only: a sandbox never
 * opens a live connection's secrets. A network error or a 5xx throws, so the queue retries with
 * backoff (the same notification id: a delivery that did arrive is then refused as a replay and
 * not retried); a 4xx is the service's final word and is logged.
 */
export const sandboxCallbackTask = defineTask("sandbox-callback", async (db, data) => {
  const callbacks = getProviderServer(data.provider)?.callbacks;
  if (!callbacks) return;
  const record = await findRecordByReference(db, data.provider, data.reference);
  if (!record || record.connectionId !== data.connectionId) return;
  const [connection] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.id, data.connectionId), eq(connections.provider, data.provider), eq(connections.mode, "test"), isNull(connections.deletedAt)))
    .limit(1);
  if (!connection || connection.mode !== "test") return;
  let credentials: CredentialValues;
  try {
    credentials = revealCredentials(connection, credentialsKey());
  } catch {
    logger.warn("sandbox callback skipped: the connection's credentials cannot be opened", { provider: data.provider, connectionId: data.connectionId });
    return;
  }
  const event = callbacks.eventFromRecord(record);
  if (event === undefined) return;
  const signed = callbacks.sign({ event, credentials, notificationId: data.notificationId, timestamp: Math.floor(Date.now() / 1000) });
  const url = callbackUrl(data.provider, data.connectionId);
  const response = await fetch(url, { method: "POST", headers: signed.headers, body: signed.rawBody, signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS) });
  const answer = (await response.text().catch(() => "")).slice(0, 500);
  if (response.status >= 500) throw new Error(`callback of ${data.provider} answered ${response.status}`);
  if (response.status >= 400) {
    logger.warn("sandbox callback refused", {
      provider: data.provider,
      connectionId: data.connectionId,
      notificationId: data.notificationId,
      status: response.status,
      answer,
    });
  }
});
