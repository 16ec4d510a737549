import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { paymentMethods } from "@/lib/db/schema";
import { decryptSecret } from "@/lib/vault";
import { credentialsKey } from "@/lib/vault/vault-key";

/**
 * The provider's token of a payment method not detached, unsealed for the one provider call that
 * charges it; undefined once detached (read at the moment of the call, so a DELETE that won the race
 * is obeyed). Server only: never logged, stored elsewhere or returned.
 */
export async function usableToken(db: Db, method: { id: string; merchantId: string }): Promise<string | undefined> {
  const [row] = await db
    .select({ tokenSealed: paymentMethods.tokenSealed })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.merchantId, method.merchantId), eq(paymentMethods.id, method.id), isNull(paymentMethods.detachedAt)));
  return row ? decryptSecret(row.tokenSealed, credentialsKey()) : undefined;
}
