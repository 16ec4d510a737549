import "server-only";
import type { Db } from "@/lib/db/client";
import { keyPairMismatch } from "@/lib/connections/key-files";
import { findConnectionRow } from "@/lib/connections/queries";
import { kindOf } from "@/lib/connections/store";
import { logger } from "@/lib/logger";
import type { ConnectionKind, CredentialValues, Mode } from "@/lib/providers";
import { getProviderServer } from "@/lib/providers/server/servers";
import { isVaultError } from "@/lib/vault";
import type { AdapterContext, HealthResult } from "@/lib/providers/kit/adapter";
import { adapterContextFor, adapterContextForCredentials } from "./connection-context";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { mintUnsavedAccountToken, UNSAVED_CONNECTION_ID } from "@/lib/sandbox/unsaved-account";

const unreachable = (message: string): HealthResult => ({ kind: "unreachable", message });

/** A value the vault cannot open (e.g. sealed under a credentials key this installation no longer holds); nothing was sent. */
export const UNREADABLE_CREDENTIALS =
  "The stored credentials cannot be read with this installation's credentials keys, so nothing was sent. Ask the operator to restore the key, or delete the connection and create it again.";

/**
 * Whatever goes wrong (no adapter, no live URL, an adapter that throws) is reported, never thrown.
 * Key files that are not one pair are named before anything is sent: the provider would only say
 * that the signature does not verify.
 */
async function runHealthCheck(
  provider: string,
  makeContext: (recorder: ReturnType<typeof createExchangeRecorder>) => Promise<AdapterContext>,
): Promise<HealthResult> {
  const server = getProviderServer(provider);
  if (!server) return unreachable(`Test connection is not available for ${provider} yet.`);
  try {
    const context = await makeContext(createExchangeRecorder());
    const mismatch = keyPairMismatch(kindOf({ provider, kind: context.kind }), context.credentials);
    if (mismatch) return { kind: "credentials_refused", field: String(mismatch.path?.at(-1)), message: mismatch.message, found: mismatch.message };
    return await server.adapter.healthCheck(context);
  } catch (error) {
    logger.warn("health check failed", { provider, error: error instanceof Error ? error.name : "unknown" });
    if (isVaultError(error)) return unreachable(UNREADABLE_CREDENTIALS);
    const named = error instanceof Error && (error.name === "MissingBaseUrlError" || error.name === "ModeMismatchError");
    return unreachable(named ? error.message : "The provider could not be reached.");
  }
}

/** "Test connection" on a saved connection: its decrypted credentials against sandbox or live URL. */
export async function checkConnectionHealth(db: Db, merchantId: string, connectionId: string): Promise<HealthResult> {
  const connection = await findConnectionRow(db, merchantId, connectionId);
  if (!connection) return unreachable("No such connection.");
  return runHealthCheck(connection.provider, (recorder) => adapterContextFor(db, connection, recorder));
}

/**
 * "Test connection" in the New connection form: the values typed, before anything is saved. In test
 * mode the sandbox knows no account by them yet, so the request carries them in a token only this
 * server can make, and the sandbox checks the request against them alone (format, the ID it names,
 * the signature made with the typed secret); live mode asks the provider itself.
 */
export async function checkCredentialsHealth(provider: string, kind: ConnectionKind, mode: Mode, credentials: CredentialValues): Promise<HealthResult> {
  return runHealthCheck(provider, async (recorder) => {
    const context = adapterContextForCredentials({ connectionId: UNSAVED_CONNECTION_ID, provider, kind, mode, credentials }, recorder);
    return mode === "test" ? { ...context, unsavedAccountToken: mintUnsavedAccountToken(provider, credentials) } : context;
  });
}
