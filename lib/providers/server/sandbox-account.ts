import "server-only";
import type { Db } from "@/lib/db/client";
import { findSandboxAccount, type FindSandboxAccountOptions, type SandboxAccount } from "@/lib/sandbox/accounts";

export type AccountLookup = { kind: "unknown" } | { kind: "refused" } | { kind: "found"; account: SandboxAccount };

/** More test connections with one merchant ID than any real test needs. */
const MAX_CANDIDATES = 50;

/**
 * Sample credentials give every test connection of Provider D or E the same merchant ID, so the
 * sandbox cannot stop at the first account with that ID: it takes the first one whose secret or
 * key `accept`s the request, in findSandboxAccount's stable order (oldest first). "unknown" means
 * no account has that ID; "refused" that some do and none accepts.
 */
export async function findAcceptingAccount(
  db: Db,
  slug: string,
  match: (publicCredentials: Record<string, unknown>) => boolean,
  accept: (account: SandboxAccount) => boolean,
  options: FindSandboxAccountOptions = {},
): Promise<AccountLookup> {
  for (let skip = 0; skip < MAX_CANDIDATES; skip += 1) {
    let seen = 0;
    const account = await findSandboxAccount(db, slug, (credentials) => match(credentials) && seen++ === skip, options);
    if (!account) return skip === 0 ? { kind: "unknown" } : { kind: "refused" };
    if (accept(account)) return { kind: "found", account };
  }
  return { kind: "refused" };
}
