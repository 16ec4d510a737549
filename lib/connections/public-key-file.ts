import "server-only";
import type { Db } from "@/lib/db/client";
import { getKind, type FieldSpec } from "@/lib/providers";
import { getConnection } from "./queries";

/** Key files a connection may hand back: public keys stored in clear, never a secret field. */
export function downloadableKeyFields(provider: string, kind: string): FieldSpec[] {
  return (getKind(provider, kind)?.fields ?? []).filter((f) => f.input === "key_file" && f.pem === "public" && !f.secret);
}

/**
 * A public key of one of the merchant's own connections, as a .pem file (Provider E's public key,
 * which the merchant shares with Provider E's manager). Undefined when the connection is not the
 * merchant's, the field is not a downloadable public key, or nothing is stored.
 */
export async function publicKeyFile(db: Db, merchantId: string, connectionId: string, fieldId: string): Promise<{ fileName: string; pem: string } | undefined> {
  const connection = await getConnection(db, merchantId, connectionId);
  if (!connection) return undefined;
  const field = downloadableKeyFields(connection.provider, connection.kind).find((f) => f.id === fieldId);
  const pem = connection.publicValues[fieldId];
  if (!field || typeof pem !== "string" || !pem.includes("-----BEGIN PUBLIC KEY-----")) return undefined;
  return { fileName: `${connection.provider}-${field.id.replace(/_/g, "-")}.pem`, pem: pem.endsWith("\n") ? pem : `${pem}\n` };
}
