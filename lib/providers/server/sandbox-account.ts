import "server-only";
import type { Db } from "@/lib/db/client";
import { noteSandboxAccount } from "@/lib/sandbox/faults";
import { listSandboxAccounts, type FindSandboxAccountOptions, type SandboxAccount } from "@/lib/sandbox/accounts";

export type AccountLookup = { kind: "unknown" } | { kind: "refused" } | { kind: "found"; account: SandboxAccount };

/**
 * Sample credentials give every test connection of Provider D or E the same merchant ID, so the
 * sandbox cannot stop at the first account with that ID: it takes the first one whose secret or
 * key `accept`s the request, oldest first (one query; each candidate decrypted only when reached).
 * "unknown" means no account has that ID; "refused" that some do and none accepts. A sandbox
 * answers both with one and the same refusal: telling them apart would tell anyone which IDs exist.
 */
export async function findAcceptingAccount(
  db: Db,
  slug: string,
  match: (publicCredentials: Record<string, unknown>) => boolean,
  accept: (account: SandboxAccount) => boolean,
  options: FindSandboxAccountOptions = {},
): Promise<AccountLookup> {
  let seen = false;
  for (const account of await listSandboxAccounts(db, slug, match, options)) {
    seen = true;
    if (accept(account)) {
      // The connection's sandbox fault (lib/sandbox/faults.ts): a 5xx fault refuses here, before the sandbox acts.
      // Unsaved values (Test connection before saving) have no connection, so no fault switch.
      if (!account.unsaved) await noteSandboxAccount(account.connectionId);
      return { kind: "found", account };
    }
  }
  return seen ? { kind: "refused" } : { kind: "unknown" };
}
