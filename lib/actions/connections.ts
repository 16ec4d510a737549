"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createGeneratedKeyPair } from "@/lib/connections/key-files";
import { recordAudit } from "@/lib/audit/record";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { isTestReceiptFor } from "@/lib/connections/test-receipt";
import { connectionScope, personActor } from "@/lib/connections/scope";
import { createConnection, deleteConnection, editConnection, setConnectionEnabled } from "@/lib/connections/service";
import { NotFoundError } from "@/lib/errors";
import { ok, refuse } from "@/lib/problems";
import { validatedAction } from "./validated-action";

function refresh(provider?: string, id?: string) {
  revalidatePath("/connections");
  revalidatePath("/providers");
  if (provider) revalidatePath(`/providers/${provider}`);
  if (id) revalidatePath(`/connections/${id}`);
}

const NOT_FOUND = "This connection does not exist or was deleted.";

/** The form's values, and the receipt of a Test connection it passed before saving, if any. */
const createWithReceiptSchema = z.intersection(createConnectionSchema, z.object({ test_receipt: z.string().max(100).optional() }));

export const createConnectionAction = validatedAction(
  "connections.create",
  { schema: createWithReceiptSchema, can: "connections.write" },
  async ({ test_receipt, ...input }, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const created = await createConnection(scope, input);
    if (!created.ok) return created;
    // Exactly these values passed Test connection before saving: the connection starts out tested.
    if (isTestReceiptFor(test_receipt, scope.merchantId, input)) {
      const target = { type: "connection", id: created.value.id } as const;
      await recordAudit(scope.db, {
        merchantId: scope.merchantId,
        actor: scope.actor,
        action: "connection.tested",
        target,
        summary: input.label,
        changes: ["ok", "before saving"],
      });
    }
    refresh(input.provider);
    return ok({ id: created.value.id });
  },
);

const idSchema = z.object({ id: z.string().min(1) });

/** The edit's attributes are parsed by editConnection against the stored connection's kind. */
export const updateConnectionAction = validatedAction(
  "connections.update",
  { schema: idSchema.loose(), can: "connections.write" },
  async ({ id, ...attributes }, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const edited = await editConnection(scope, id, attributes);
    if (!edited) throw new NotFoundError(NOT_FOUND);
    if (!edited.ok) return edited;
    refresh(edited.value.provider, id);
    return ok({ id });
  },
);

export const setConnectionEnabledAction = validatedAction(
  "connections.enable",
  { schema: idSchema.extend({ enabled: z.boolean() }), can: "connections.write" },
  async (input, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const result = await setConnectionEnabled(scope, input.id, input.enabled);
    if (!result) throw new NotFoundError(NOT_FOUND);
    if (!result.ok) return refuse("refused", result.problems.map((p) => p.message).join(" "));
    refresh(result.value.provider, input.id);
    return ok(undefined);
  },
);

export const deleteConnectionAction = validatedAction("connections.delete", { schema: idSchema, can: "connections.write" }, async (input, viewer) => {
  const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
  if (!(await deleteConnection(scope, input.id))) throw new NotFoundError(NOT_FOUND);
  refresh(undefined, input.id);
  return ok(undefined);
});

/** Provider E: generates the pair here; only the public key leaves the server. */
export const generateKeyPairAction = validatedAction(
  "connections.generate-key-pair",
  { schema: z.object({}), can: "connections.write" },
  async (_input, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const pair = await createGeneratedKeyPair(scope.db, scope.merchantId, scope.vaultKey);
    return ok({ generatedKeyId: pair.id, publicKeyPem: pair.publicKeyPem });
  },
);
