"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActionViewer } from "@/lib/auth/viewer";
import { recordAudit } from "@/lib/connections/audit";
import { createGeneratedKeyPair } from "@/lib/connections/key-files";
import { findConnectionRow } from "@/lib/connections/queries";
import { createConnectionSchema, updateConnectionSchema } from "@/lib/connections/schemas";
import { connectionScope, personActor } from "@/lib/connections/scope";
import { createConnection, deleteConnection, setConnectionEnabled, updateConnection } from "@/lib/connections/service";
import { kindOf } from "@/lib/connections/store";
import { fromZodIssues, NotFoundError } from "@/lib/errors";
import type { ActionResult } from "./result";
import { runAction, unsafeInputResult, validatedAction } from "./validated-action";

function refresh(provider?: string, id?: string) {
  revalidatePath("/connections");
  revalidatePath("/providers");
  if (provider) revalidatePath(`/providers/${provider}`);
  if (id) revalidatePath(`/connections/${id}`);
}

const NOT_FOUND = "This connection does not exist or was deleted.";

export const createConnectionAction = validatedAction(
  "connections.create",
  { schema: createConnectionSchema, role: "owner" },
  async (input, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const created = await createConnection(scope, input);
    if (!created.ok) return created;
    refresh(input.provider);
    return { ok: true, data: { id: created.value.id } };
  },
);

const idSchema = z.object({ id: z.string().min(1) });

/** The update schema depends on the stored connection's kind, so the id is read first. */
export async function updateConnectionAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return runAction("connections.update", async () => {
    const viewer = await requireActionViewer("owner");
    const unsafe = unsafeInputResult(input);
    if (unsafe) return unsafe;
    const ref = idSchema.safeParse(input);
    if (!ref.success) return { ok: false, errors: fromZodIssues(ref.error.issues) };
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const row = await findConnectionRow(scope.db, scope.merchantId, ref.data.id);
    if (!row) throw new NotFoundError(NOT_FOUND);
    const { id: _id, ...fields } = input as Record<string, unknown>;
    const parsed = updateConnectionSchema(kindOf(row)).safeParse(fields);
    if (!parsed.success) return { ok: false, errors: fromZodIssues(parsed.error.issues) };
    const updated = await updateConnection(scope, row.id, parsed.data);
    if (!updated) throw new NotFoundError(NOT_FOUND);
    if (!updated.ok) return updated;
    refresh(row.provider, row.id);
    return { ok: true, data: { id: row.id } };
  });
}

export const setConnectionEnabledAction = validatedAction(
  "connections.enable",
  { schema: idSchema.extend({ enabled: z.boolean() }), role: "owner" },
  async (input, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const result = await setConnectionEnabled(scope, input.id, input.enabled);
    if (!result) throw new NotFoundError(NOT_FOUND);
    if (!result.ok) return { ok: false, errors: [], message: result.errors.map((e) => e.message).join(" ") };
    refresh(result.value.provider, input.id);
    return { ok: true, data: undefined };
  },
);

export const deleteConnectionAction = validatedAction(
  "connections.delete",
  { schema: idSchema, role: "owner" },
  async (input, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    if (!(await deleteConnection(scope, input.id))) throw new NotFoundError(NOT_FOUND);
    refresh(undefined, input.id);
    return { ok: true, data: undefined };
  },
);

/** The provider sandboxes arrive with payment processing; until then the check says so plainly. */
export const testConnectionAction = validatedAction(
  "connections.test",
  { schema: idSchema, role: "owner" },
  async (input, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const row = await findConnectionRow(scope.db, scope.merchantId, input.id);
    if (!row) throw new NotFoundError(NOT_FOUND);
    await recordAudit(scope.db, { connectionId: row.id, merchantId: scope.merchantId, actor: scope.actor, action: "tested", changes: ["not available yet"] });
    return {
      ok: true,
      data: { available: false, message: "Test connection is not available yet: the provider sandboxes arrive with payment processing." },
    };
  },
);

/** Provider E: generates the pair here; only the public key leaves the server. */
export const generateKeyPairAction = validatedAction(
  "connections.generate-key-pair",
  { schema: z.object({}), role: "owner" },
  async (_input, viewer) => {
    const scope = await connectionScope(viewer.merchant.id, personActor(viewer));
    const pair = await createGeneratedKeyPair(scope.db, scope.merchantId, scope.vaultKey);
    return { ok: true, data: { generatedKeyId: pair.id, publicKeyPem: pair.publicKeyPem } };
  },
);
