import "server-only";
import { getDb } from "@/lib/db/client";
import type { Actor } from "@/lib/audit/record";
import { credentialsKey } from "../vault/vault-key";

export { apiKeyActor, personActor } from "@/lib/audit/record";

/** Everything a connection operation needs, for one merchant. */
export async function connectionScope(merchantId: string, actor: Actor) {
  return { db: await getDb(), merchantId, actor, vaultKey: credentialsKey() };
}
