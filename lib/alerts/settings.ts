import "server-only";
import { eq } from "drizzle-orm";
import { recordAudit, type Actor } from "@/lib/audit/record";
import type { Db } from "@/lib/db/client";
import { alertRules } from "@/lib/db/schema";
import { ALERT_RULE_KINDS, ALERT_RULES, defaultRuleSetting, figureWords, type AlertRuleSetting } from "./rules";
import type { AlertRuleInput } from "./schemas";

/** Every rule as it applies to the merchant, in the order of ALERT_RULE_KINDS: its saved values or the defaults. */
export async function readAlertRules(db: Db, merchantId: string): Promise<AlertRuleSetting[]> {
  const rows = await db.select().from(alertRules).where(eq(alertRules.merchantId, merchantId));
  return ALERT_RULE_KINDS.map((rule) => {
    const row = rows.find((r) => r.rule === rule);
    return row ? { rule, enabled: row.enabled, threshold: row.threshold, windowMinutes: row.windowMinutes } : defaultRuleSetting(rule);
  });
}

/** "on, below 80 % over 60 minutes": a rule's values in the audit log's words. */
function settingWords(setting: AlertRuleSetting): string {
  const spec = ALERT_RULES[setting.rule];
  const figures = [
    spec.threshold && setting.threshold !== null ? `${spec.threshold.label.toLowerCase()} ${figureWords(spec.threshold, setting.threshold)}` : null,
    spec.window && setting.windowMinutes !== null ? `${spec.window.label.toLowerCase()} ${figureWords(spec.window, setting.windowMinutes)}` : null,
  ].filter(Boolean);
  return [setting.enabled ? "on" : "off", ...figures].join(", ");
}

/** An owner saves one rule: the row (made on the first change) and its audit entry in one transaction. */
export async function saveAlertRule(db: Db, merchantId: string, actor: Actor, input: AlertRuleInput): Promise<AlertRuleSetting> {
  const saved: AlertRuleSetting = { rule: input.rule, enabled: input.enabled, threshold: input.threshold, windowMinutes: input.windowMinutes };
  const before = (await readAlertRules(db, merchantId)).find((r) => r.rule === input.rule)!;
  await db.transaction(async (tx) => {
    await tx
      .insert(alertRules)
      .values({ merchantId, ...saved })
      .onConflictDoUpdate({
        target: [alertRules.merchantId, alertRules.rule],
        set: { enabled: saved.enabled, threshold: saved.threshold, windowMinutes: saved.windowMinutes, updatedAt: new Date() },
      });
    const changes = [
      before.enabled !== saved.enabled ? "enabled" : null,
      before.threshold !== saved.threshold ? "threshold" : null,
      before.windowMinutes !== saved.windowMinutes ? "window_minutes" : null,
    ].filter((c): c is string => c !== null);
    await recordAudit(tx, {
      merchantId,
      actor,
      action: "alert.rule_updated",
      target: { type: "alert_rule", id: input.rule },
      summary: `${ALERT_RULES[input.rule].label}: ${settingWords(saved)}`,
      changes,
    });
  });
  return saved;
}
