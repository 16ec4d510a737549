"use server";

import { revalidatePath } from "next/cache";
import { saveAlertRule } from "@/lib/alerts/settings";
import { alertRuleSchema } from "@/lib/alerts/schemas";
import { personActor } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { ok } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/** Owners change one alert rule of their merchant (on or off, its figures); audited. */
export const updateAlertRuleAction = validatedAction("alerts.rule", { schema: alertRuleSchema, can: "alerts.manage" }, async (input, viewer) => {
  const saved = await saveAlertRule(await getDb(), viewer.merchant.id, personActor(viewer), input);
  revalidatePath("/alerts");
  return ok(saved);
});
