"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { personActor } from "@/lib/connections/scope";
import { getDb } from "@/lib/db/client";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { toSimulationAttributes } from "@/lib/routing/resource";
import { routingRulesSchema } from "@/lib/routing/rules";
import { routingOrderInputSchema } from "@/lib/routing/schemas";
import { simulateRouting, simulationInputSchema } from "@/lib/routing/simulate";
import { ok } from "@/lib/problems";
import { NotFoundError } from "@/lib/errors";
import { successSettingsSchema } from "@/lib/routing/success-settings";
import { saveSuccessSettings, toSettingsAttributes } from "@/lib/routing/success-stats";
import { validatedAction } from "./validated-action";

/** The Routing page saves one list at a time; the audit trail names the person. */
export const saveRoutingOrderAction = validatedAction(
  "routing.save",
  { schema: routingOrderInputSchema, role: "owner" },
  async (input, viewer) => {
    const saved = await saveRoutingOrder(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer) }, input);
    if (!saved.ok) return saved;
    revalidatePath("/routing");
    return ok({ id: saved.value.id, connectionIds: saved.value.connections.map((c) => c.connectionId) });
  },
);

const rulesInputSchema = z.strictObject({
  service: routingOrderInputSchema.shape.service,
  mode: routingOrderInputSchema.shape.mode,
  rules: routingRulesSchema,
});

/** The rules before the default of one service and mode, saved whole through the same save (a new version). */
export const saveRoutingRulesAction = validatedAction(
  "routing.saveRules",
  { schema: rulesInputSchema, role: "owner" },
  async (input, viewer) => {
    const saved = await saveRoutingOrder(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer) }, input);
    if (!saved.ok) return saved;
    revalidatePath("/routing");
    return ok({ id: saved.value.id, version: saved.value.version, rules: saved.value.rules.length });
  },
);

/** The Routing page's simulator: any member may ask what routing would do; nothing is created. */
export const simulateRoutingAction = validatedAction("routing.simulate", { schema: simulationInputSchema }, async (input, viewer) => {
  const simulated = await simulateRouting(await getDb(), viewer.merchant.id, input);
  return simulated.ok ? ok(toSimulationAttributes(simulated.value)) : simulated;
});

/** Owners set how success-rate ordering counts (window, minimum sample, exploration share); audited. */
export const saveSuccessSettingsAction = validatedAction(
  "routing.successSettings",
  { schema: successSettingsSchema, role: "owner" },
  async (input, viewer) => {
    const saved = await saveSuccessSettings(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer) }, input);
    if (!saved) throw new NotFoundError("Your merchant account no longer exists.");
    revalidatePath("/routing");
    return ok(toSettingsAttributes(saved));
  },
);
