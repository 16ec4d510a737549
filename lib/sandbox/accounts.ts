import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import { credentialsKey } from "@/lib/connections/vault-key";
import { revealCredentials } from "@/lib/connections/store";
import type { Db } from "@/lib/db/client";
import { connections } from "@/lib/db/schema";
import type { CredentialValues } from "@/lib/providers";

export type SandboxAccount = { connectionId: string; credentials: CredentialValues };

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
  const rows = await db
    .select()
    .from(connections)
    .where(and(eq(connections.provider, slug), eq(connections.mode, "test"), isNull(connections.deletedAt)))
    .orderBy(asc(connections.createdAt), asc(connections.id));
  const row = rows.find((candidate) => candidate.mode === "test" && match(candidate.publicCredentials));
  if (!row) return undefined;
  return { connectionId: row.id, credentials: revealCredentials(row, options.vaultKey ?? credentialsKey()) };
}
