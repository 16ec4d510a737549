import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHmac, randomUUID } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import type { CredentialValues } from "@/lib/providers/types";
import { decryptJson, encryptJson } from "@/lib/vault";

/**
 * Test connection before saving, in test mode. A sandbox knows the merchants it serves by their
 * saved test-mode connections, so typed values that are not saved yet would always be refused. The
 * health check of unsaved values therefore sends, beside the request the adapter signs with them,
 * a short-lived token holding those values: sealed (AES-256-GCM) under a key derived from
 * AUTH_SECRET, so only this server (or an instance sharing its AUTH_SECRET) can make or read one,
 * and valid for one provider for a minute.
 *
 * A sandbox request carrying the header is checked against the token's values ONLY: the saved
 * accounts are not looked at, whatever the token says and even when it is forged, expired or for
 * another provider (then no account at all, so the one refusal every sandbox gives). So neither an
 * outside caller nor a signed-in owner typing someone else's ID can learn anything about another
 * account from it; what the sandbox checks is that the request was made with the typed values the
 * provider's way (the public ID it names, a signature made with the typed secret, a key pair).
 * The header is added by `callProvider` in test mode and never recorded in an exchange log.
 */
export const UNSAVED_ACCOUNT_HEADER = "x-sandbox-unsaved-account";

/** How long a token is good for: one health check, sent at once. */
const UNSAVED_ACCOUNT_TTL_MS = 60_000;

/** The account id the health check's adapter context carries for unsaved values; no connection has it. */
export const UNSAVED_CONNECTION_ID = "unsaved";

/** `nonce`: each token is an account of its own in the sandbox (`unsaved:<nonce>`), so one check never meets another's records. */
type Sealed = { purpose: "sandbox-unsaved-account"; provider: string; credentials: CredentialValues; expiresAt: number; nonce: string };

function tokenKey(): Buffer {
  return createHmac("sha256", authSecret()).update("sandbox-unsaved-account").digest();
}

/** A token for these unsaved values of this provider, for one health check. */
export function mintUnsavedAccountToken(provider: string, credentials: CredentialValues, now = Date.now()): string {
  const sealed: Sealed = { purpose: "sandbox-unsaved-account", provider, credentials, expiresAt: now + UNSAVED_ACCOUNT_TTL_MS, nonce: randomUUID() };
  return encryptJson(sealed, tokenKey());
}

/** A token's contents for `provider`, or undefined when it is not one this server made, expired, or for another provider. */
function openSealed(token: string, provider: string, now: number): Sealed | undefined {
  let sealed: Sealed;
  try {
    sealed = decryptJson<Sealed>(token, tokenKey());
  } catch {
    return undefined;
  }
  if (!sealed || sealed.purpose !== "sandbox-unsaved-account" || sealed.provider !== provider) return undefined;
  if (typeof sealed.expiresAt !== "number" || sealed.expiresAt < now) return undefined;
  if (!sealed.credentials || typeof sealed.credentials !== "object" || typeof sealed.nonce !== "string") return undefined;
  return sealed;
}

/**
 * What one sandbox request may be checked against: `undefined` outside a request carrying the
 * header (the saved accounts), otherwise the token's values, or `null` for a token that does not open.
 */
type UnsavedScope = { credentials: CredentialValues | null; connectionId: string };

const scope = new AsyncLocalStorage<UnsavedScope>();

/** Runs one sandbox request; with the header, the account lookup sees the token's values and nothing else. */
export function runWithUnsavedAccount<T>(request: Request, provider: string, handle: () => Promise<T>): Promise<T> {
  const token = request.headers.get(UNSAVED_ACCOUNT_HEADER);
  if (token === null) return handle();
  const sealed = openSealed(token, provider, Date.now());
  return scope.run({ credentials: sealed?.credentials ?? null, connectionId: `unsaved:${sealed?.nonce ?? "none"}` }, handle);
}

/** Inside a request with the header: its values (null when the token did not open). Otherwise undefined. */
export function currentUnsavedAccount(): CredentialValues | null | undefined {
  return scope.getStore()?.credentials;
}

/** Inside a request with the header: the account id of its token's values (one per token). */
export function currentUnsavedConnectionId(): string | undefined {
  return scope.getStore()?.connectionId;
}
