"use server";

import { revalidatePath } from "next/cache";
import { createApiKeySchema, revokeApiKeySchema, rollApiKeySchema } from "@/lib/api-keys/schemas";
import { apiKeyMode, createApiKey, revokeApiKey, rollApiKey } from "@/lib/api-keys/queries";
import { apiKeyName, personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { ok, refuse } from "@/lib/problems";
import type { Viewer } from "@/lib/identity/membership";
import { assertMayInMode, validatedAction } from "./validated-action";

/** A key of the merchant is revoked or rolled only by a role that manages keys of its mode; an unknown id falls through to "does not exist". */
async function assertMayManageKey(viewer: Viewer, id: string): Promise<void> {
  const mode = await apiKeyMode(await getDb(), viewer.merchant.id, id);
  if (mode) assertMayInMode(viewer, "keys.manage", mode);
}

/** Returns the new key once; only its hash is stored. */
export const createApiKeyAction = validatedAction("api-keys.create", { schema: createApiKeySchema, can: "keys.manage" }, async (input, viewer) => {
  assertMayInMode(viewer, "keys.manage", input.mode ?? "test");
  const { key, summary } = await createApiKey(await getDb(), {
    merchantId: viewer.merchant.id,
    name: input.name,
    mode: input.mode,
    scope: input.scope,
    createdBy: viewer.user.id,
  });
  await recordAudit(await getDb(), {
    merchantId: viewer.merchant.id,
    actor: personActor(viewer),
    action: "api_key.created",
    target: { type: "api_key", id: summary.id },
    summary: summary.name,
  });
  revalidatePath("/api-keys");
  return ok({ key, id: summary.id });
});

export const revokeApiKeyAction = validatedAction("api-keys.revoke", { schema: revokeApiKeySchema, can: "keys.manage" }, async (input, viewer) => {
  await assertMayManageKey(viewer, input.id);
  const revoked = await revokeApiKey(await getDb(), viewer.merchant.id, input.id);
  if (revoked)
    await recordAudit(await getDb(), {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "api_key.revoked",
      target: { type: "api_key", id: input.id },
      summary: await apiKeyName(await getDb(), viewer.merchant.id, input.id),
    });
  revalidatePath("/api-keys");
  return revoked ? ok(undefined) : refuse("not_found", "This key is already revoked or does not exist.");
});

/** A new key with the same name, mode and scope, returned once; the old key works until the grace chosen has passed. */
export const rollApiKeyAction = validatedAction("api-keys.roll", { schema: rollApiKeySchema, can: "keys.manage" }, async (input, viewer) => {
  await assertMayManageKey(viewer, input.id);
  const rolled = await rollApiKey(await getDb(), { merchantId: viewer.merchant.id, id: input.id, grace: input.grace, createdBy: viewer.user.id });
  revalidatePath("/api-keys");
  if (!rolled) return refuse("not_found", "This key cannot be rolled: it is revoked, expired, already rolled, or does not exist.");
  await recordAudit(await getDb(), {
    merchantId: viewer.merchant.id,
    actor: personActor(viewer),
    action: "api_key.rolled",
    target: { type: "api_key", id: input.id },
    summary: `${rolled.summary.name} (old key ${input.grace === "now" ? "stopped at once" : `works for ${input.grace}`})`,
  });
  return ok({ key: rolled.key, id: rolled.summary.id, oldExpiresAt: rolled.oldExpiresAt.toISOString() });
});
