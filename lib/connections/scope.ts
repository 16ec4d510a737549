import "server-only";
import { getDb } from "@/lib/db/client";
import type { Viewer } from "@/lib/identity/membership";
import type { Actor } from "./audit";
import { credentialsKey } from "./vault-key";

export function personActor(viewer: Viewer): Actor {
  return { label: `${viewer.user.name} <${viewer.user.email}>` };
}

export function apiKeyActor(keyId: string): Actor {
  return { label: `API key ${keyId}` };
}

/** Everything a connection operation needs, for one merchant. */
export async function connectionScope(merchantId: string, actor: Actor) {
  return { db: await getDb(), merchantId, actor, vaultKey: credentialsKey() };
}
