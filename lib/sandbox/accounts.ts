import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import { credentialsKey } from "@/lib/vault/vault-key";
import { isVaultError } from "@/lib/vault";
import { revealCredentials } from "@/lib/connections/store";
import type { Db } from "@/lib/db/client";
import { connections } from "@/lib/db/schema";
import type { CredentialValues } from "@/lib/providers/types";
import { currentUnsavedAccount, currentUnsavedConnectionId } from "./unsaved-account";

/** `unsaved`: the values typed into a New connection form, carried by this server's token (./unsaved-account.ts). */
export type SandboxAccount = { connectionId: string; credentials: CredentialValues; unsaved?: true };

export type FindSandboxAccountOptions = {
  /** The vault key the connections were sealed with; the process's key by default (tests pass their own). */
  vaultKey?: Buffer;
};

/**
 * A sandbox knows the merchants it serves the way the real provider does: by the credentials they
 * signed up with. Here that is every test-mode connection of the provider (enabled or not, not
 * deleted, any merchant), found by its public credentials (merchant ID, public key, shop login)
 * and only then decrypted, so the sandbox can check a secret or a signature.
 *
 * Live connections are never read here: the query asks for test mode and the row is checked again
 * before its secrets are opened, so a live credential can never be decrypted by a sandbox request.
 */
export async function findSandboxAccount(
  db: Db,
  slug: string,
  match: (publicCredentials: Record<string, unknown>) => boolean,
  options: FindSandboxAccountOptions = {},
): Promise<SandboxAccount | undefined> {
  for (const account of await listSandboxAccounts(db, slug, match, options)) return account;
  return undefined;
}

/**
 * Every account the public credentials match, oldest first, each decrypted only when the caller
 * reaches it. An account whose secrets cannot be opened with this process's key (sealed by another
 * installation sharing the database) is passed over, as a provider would not know it.
 */
export async function listSandboxAccounts(
  db: Db,
  slug: string,
  match: (publicCredentials: Record<string, unknown>) => boolean,
  options: FindSandboxAccountOptions = {},
): Promise<Iterable<SandboxAccount>> {
  // A Test connection of unsaved values: those values are the only account, the saved ones are not read.
  const unsaved = currentUnsavedAccount();
  if (unsaved !== undefined) {
    return unsaved !== null && match(unsaved) ? [{ connectionId: currentUnsavedConnectionId()!, credentials: unsaved, unsaved: true }] : [];
  }
  const rows = await db
    .select()
    .from(connections)
    .where(and(eq(connections.provider, slug), eq(connections.mode, "test"), isNull(connections.deletedAt)))
    .orderBy(asc(connections.createdAt), asc(connections.id));
  const candidates = rows.filter((candidate) => candidate.mode === "test" && match(candidate.publicCredentials));
  const key = () => options.vaultKey ?? credentialsKey();
  return (function* () {
    for (const row of candidates) {
      let credentials: CredentialValues;
      try {
        credentials = revealCredentials(row, key());
      } catch (error) {
        if (isVaultError(error)) continue;
        throw error;
      }
      yield { connectionId: row.id, credentials };
    }
  })();
}
