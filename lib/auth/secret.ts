import "server-only";
import path from "node:path";
import { dataDir, isEmbedded } from "@/lib/config";
import { readOrCreateSecretFile } from "@/lib/secret-file";

/** AUTH_SECRET signs session cookies; the embedded default keeps a generated one in the data directory. */
export function authSecret(): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  if (!isEmbedded()) {
    throw new Error("AUTH_SECRET is required when DATABASE_URL is set (make one with: openssl rand -base64 32)");
  }
  return readOrCreateSecretFile(path.join(dataDir(), "auth.secret")).toString("base64");
}
