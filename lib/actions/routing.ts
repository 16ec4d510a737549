"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { personActor } from "@/lib/connections/scope";
import { getDb } from "@/lib/db/client";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { toSimulationAttributes } from "@/lib/api/routing-resource";
import { routingRulesSchema } from "@/lib/routing/rules";
import { routingOrderInputSchema, versionNumberSchema } from "@/lib/routing/schemas";
import { simulateRouting, simulationInputSchema } from "@/lib/routing/simulate";
import { fail, ok, problem } from "@/lib/problems";
import { NotFoundError } from "@/lib/errors";
import { getRoutingOrder } from "@/lib/routing/orders";
import { compareRoutingVersions, getOlderRoutingHistory, rollbackRouting } from "@/lib/routing/versions";
import { successSettingsSchema } from "@/lib/routing/success-settings";
import { saveSuccessSettings, toSettingsAttributes } from "@/lib/routing/success-stats";
import { assertMayInMode, validatedAction } from "./validated-action";

/** The Routing page saves one list at a time; the audit trail names the person. */
export const saveRoutingOrderAction = validatedAction("routing.save", { schema: routingOrderInputSchema, can: "routing.write" }, async (input, viewer) => {
  assertMayInMode(viewer, "routing.write", input.mode);
  const saved = await saveRoutingOrder(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer) }, input);
  if (!saved.ok) return saved;
  revalidatePath("/routing");
  return ok({ id: saved.value.id, connectionIds: saved.value.connections.map((c) => c.connectionId) });
});

const rulesInputSchema = z.strictObject({
  service: routingOrderInputSchema.shape.service,
  mode: routingOrderInputSchema.shape.mode,
  rules: routingRulesSchema,
});

/** The rules before the default of one service and mode, saved whole through the same save (a new version). */
export const saveRoutingRulesAction = validatedAction("routing.saveRules", { schema: rulesInputSchema, can: "routing.write" }, async (input, viewer) => {
  assertMayInMode(viewer, "routing.write", input.mode);
  const saved = await saveRoutingOrder(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer) }, input);
  if (!saved.ok) return saved;
  revalidatePath("/routing");
  return ok({ id: saved.value.id, version: saved.value.version, rules: saved.value.rules.length });
});

/** The Routing page's simulator: any member may ask what routing would do; nothing is created. */
export const simulateRoutingAction = validatedAction("routing.simulate", { schema: simulationInputSchema }, async (input, viewer) => {
  const simulated = await simulateRouting(await getDb(), viewer.merchant.id, input);
  return simulated.ok ? ok(toSimulationAttributes(simulated.value)) : simulated;
});

const compareInputSchema = z.strictObject({
  service: routingOrderInputSchema.shape.service,
  mode: routingOrderInputSchema.shape.mode,
  from: versionNumberSchema("The older version"),
  to: versionNumberSchema("The newer version"),
});

const noOrder = (service: string, mode: string) => fail([problem("not_found", `No connection of yours offers ${service} in ${mode} mode`, ["service"])]);

/** The Routing page's history: what changed from one version to another, as sentences. Any member may compare. */
export const compareRoutingVersionsAction = validatedAction("routing.compareVersions", { schema: compareInputSchema }, async (input, viewer) => {
  const db = await getDb();
  const order = await getRoutingOrder(db, viewer.merchant.id, input.service, input.mode);
  if (!order) return noOrder(input.service, input.mode);
  const compared = await compareRoutingVersions(db, viewer.merchant.id, order, input.from, input.to);
  if (!compared.ok) return compared;
  const { from, to, changes, notes } = compared.value;
  return ok({ from, to, changes: changes.map((change) => ({ kind: change.kind, sentence: change.sentence })), notes: notes.map((note) => note.sentence) });
});

const olderVersionsInputSchema = z.strictObject({
  service: routingOrderInputSchema.shape.service,
  mode: routingOrderInputSchema.shape.mode,
  before: versionNumberSchema("Before"),
});

/**
 * The Routing page's "Show older versions": the next page of the history, before the oldest version
 * shown, with each rollback's confirmation text. Any member may read the history. `current` lets
 * the page tell that a save came in between (its versions were counted from another latest).
 */
export const olderRoutingVersionsAction = validatedAction("routing.olderVersions", { schema: olderVersionsInputSchema }, async (input, viewer) => {
  const db = await getDb();
  const order = await getRoutingOrder(db, viewer.merchant.id, input.service, input.mode);
  if (!order) return noOrder(input.service, input.mode);
  return ok({ current: order.version, ...(await getOlderRoutingHistory(db, viewer.merchant.id, order, input.before)) });
});

const rollbackInputSchema = z.strictObject({
  service: routingOrderInputSchema.shape.service,
  mode: routingOrderInputSchema.shape.mode,
  version: versionNumberSchema("The version"),
});

/** Who may change routing in the mode (owners; developers in test) roll it back to an earlier version (a new version; audit routing.rolled_back); the role is checked here, not only by the page. */
export const rollbackRoutingAction = validatedAction("routing.rollback", { schema: rollbackInputSchema, can: "routing.write" }, async (input, viewer) => {
  assertMayInMode(viewer, "routing.write", input.mode);
  const db = await getDb();
  const order = await getRoutingOrder(db, viewer.merchant.id, input.service, input.mode);
  if (!order) return noOrder(input.service, input.mode);
  const rolled = await rollbackRouting(db, { merchantId: viewer.merchant.id, actor: personActor(viewer) }, order, input.version);
  if (!rolled.ok) return rolled;
  revalidatePath("/routing");
  return ok({ restored: rolled.value.restored, version: rolled.value.version, message: rolled.value.message });
});

/** Owners set how success-rate ordering counts (window, minimum sample, exploration share); audited. */
export const saveSuccessSettingsAction = validatedAction(
  "routing.successSettings",
  { schema: successSettingsSchema, can: "routing.write.live" },
  async (input, viewer) => {
    const saved = await saveSuccessSettings(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer) }, input);
    if (!saved) throw new NotFoundError("Your merchant account no longer exists.");
    revalidatePath("/routing");
    return ok(toSettingsAttributes(saved));
  },
);
