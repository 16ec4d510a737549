import "server-only";
import { dataDir, isEmbedded } from "@/lib/config";
import { loadCredentialsKey } from "./load-credentials-key";

let cached: Buffer | undefined;

/** The process's credentials key: CREDENTIALS_KEY, or on the embedded default a generated one in the data directory. */
export function credentialsKey(): Buffer {
  cached ??= loadCredentialsKey({ env: process.env, dataDir: dataDir(), embedded: isEmbedded() });
  return cached;
}
