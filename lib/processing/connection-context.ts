import "server-only";
import { publicBaseUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { kindOf, revealCredentials, type ConnectionRow } from "@/lib/connections/store";
import { credentialsKey } from "@/lib/vault/vault-key";
import type { ConnectionKind, CredentialValues, Mode } from "@/lib/providers";
import type { AdapterContext } from "@/lib/providers/kit/adapter";
import type { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { baseUrlRefusal } from "@/lib/providers/kit/mode-guard";
import { getProviderServer } from "@/lib/providers/server/servers";
import { providerTimeoutMs } from "../providers/kit/timeout";

/** A recorder that also learns the connection's secrets, so no log line can carry them. */
export type SecretAwareRecorder = ReturnType<typeof createExchangeRecorder>;

/** The connection has nowhere to send requests (a live provider without its URL configured). */
export class MissingBaseUrlError extends Error {
  override name = "MissingBaseUrlError";
}

/** The address the connection would call does not belong to its mode (a live URL pointing at a sandbox). */
export class ModeMismatchError extends Error {
  override name = "ModeMismatchError";
}

/** "provider-d" → "D": the letter of its PROVIDER_<LETTER>_LIVE_URL variable. */
function liveUrlVariable(provider: string): string {
  const letter = provider
    .replace(/^provider-/, "")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "_");
  return `PROVIDER_${letter}_LIVE_URL`;
}

/**
 * Test mode always talks to the provider's sandbox on this server; live mode to the provider's
 * live URL from configuration, unless the kind names a credential holding the connection's own
 * address (`liveUrlField`: Provider D's api_url, spec 5.1).
 */
function baseUrlFor(provider: string, mode: Mode, credentials: CredentialValues, liveUrlField?: string): string {
  if (mode === "test") return `${publicBaseUrl()}/sandbox/${provider}`;
  const ownValue = liveUrlField === undefined ? undefined : credentials[liveUrlField];
  const own = typeof ownValue === "string" ? ownValue.trim() : "";
  const url = own || process.env[liveUrlVariable(provider)]?.trim() || "";
  if (!url) throw new MissingBaseUrlError(`No live address for ${provider}: set ${liveUrlVariable(provider)}`);
  return url.replace(/\/+$/, "");
}

export type CredentialsSubject = {
  connectionId: string;
  provider: string;
  kind: ConnectionKind;
  mode: Mode;
  credentials: CredentialValues;
};

/** The context for credentials in hand (a saved connection's, or unsaved form values). */
export function adapterContextForCredentials(subject: CredentialsSubject, exchanges: SecretAwareRecorder): AdapterContext {
  const kind = kindOf({ provider: subject.provider, kind: subject.kind });
  for (const field of kind.fields) {
    const value = subject.credentials[field.id];
    if (field.secret && typeof value === "string") exchanges.addSecret(value);
  }
  const baseUrl = baseUrlFor(subject.provider, subject.mode, subject.credentials, kind.liveUrlField);
  const refused = baseUrlRefusal(subject.mode, baseUrl);
  if (refused) throw new ModeMismatchError(refused);
  const context: AdapterContext = {
    connectionId: subject.connectionId,
    provider: subject.provider,
    kind: subject.kind,
    mode: subject.mode,
    baseUrl,
    credentials: subject.credentials,
    exchanges,
    timeoutMs: providerTimeoutMs(),
  };
  const ownUrl = kind.liveUrlField === undefined ? undefined : subject.credentials[kind.liveUrlField];
  if (subject.mode === "live" && typeof ownUrl === "string" && ownUrl.trim() !== "") {
    // The connection's own address is checked again before each request (its name may now resolve
    // elsewhere), by the provider's own check, and the socket connects only to an address that
    // passes as it connects. A provider that declares no check has its own address refused.
    const guard = getProviderServer(subject.provider)?.guardLiveUrl;
    context.guardUrl = async () =>
      guard
        ? (await guard(ownUrl, "send")).map((entry) => entry.message).join(" ") || undefined
        : `${subject.provider} declares no check of a connection's own address; not sent.`;
    context.publicAddressOnly = true;
  }
  return context;
}

/** Decrypts the connection's credentials for one provider call; nothing here is ever returned to a page. */
export async function adapterContextFor(_db: Db, connection: ConnectionRow, exchanges: SecretAwareRecorder): Promise<AdapterContext> {
  return adapterContextForCredentials(
    {
      connectionId: connection.id,
      provider: connection.provider,
      kind: connection.kind as ConnectionKind,
      mode: connection.mode as Mode,
      credentials: revealCredentials(connection, credentialsKey()),
    },
    exchanges,
  );
}
