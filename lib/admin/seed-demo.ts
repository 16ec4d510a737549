import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/api-keys/queries";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/connections/vault-key";
import type { Db } from "@/lib/db/client";
import { findUserByEmail } from "@/lib/identity/membership";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { PROVIDERS } from "@/lib/providers";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";

export const DEMO_EMAIL = "demo@example.com";

/**
 * A demo merchant to click around with: one test-mode connection per provider and kind, an API key
 * and a printed password. Refuses to run twice rather than resetting anyone's password.
 */
export async function seedDemo(db: Db): Promise<Record<string, unknown>> {
  if (await findUserByEmail(db, DEMO_EMAIL)) throw new Error(`${DEMO_EMAIL} exists already; nothing was changed`);
  const password = `demo-${randomBytes(6).toString("hex")}1`;
  const created = await createMerchantWithOwner(db, {
    email: DEMO_EMAIL,
    password,
    name: "Demo Owner",
    merchantName: "Demo Merchant",
    commerceAccount: "demo",
  });
  if (!created.ok) throw new Error(created.problems.map((p) => p.message).join("; "));
  const merchantId = created.value.merchant.id;
  const { key } = await createApiKey(db, { merchantId, name: "Demo key" });
  const scope = { db, merchantId, actor: { label: "seed-demo" }, vaultKey: credentialsKey() };
  const connections: { id: string; provider: string; kind: string; label: string }[] = [];
  for (const provider of PROVIDERS) {
    for (const kind of provider.kinds) {
      const label = `${provider.name} ${kind.label} (test)`;
      const input = createConnectionSchema.parse({
        provider: provider.slug,
        kind: kind.kind,
        label,
        mode: "test",
        credentials: sampleCredentials(provider.slug, kind.kind, "test"),
      });
      const result = await createConnection(scope, input);
      if (!result.ok) throw new Error(`${label}: ${result.problems.map((p) => p.message).join("; ")}`);
      connections.push({ id: result.value.id, provider: provider.slug, kind: kind.kind, label });
    }
  }
  return { email: DEMO_EMAIL, password, merchantId, commerceAccount: "demo", apiKey: key, connections };
}
