import { z } from "zod";
import { ALERT_RULE_KINDS } from "@/lib/db/enums";
import { ALERT_RULES, type RuleFigure } from "./rules";

/** A whole number in a figure's bounds, or nothing (a rule without the figure ignores it). */
const figure = z.coerce.number({ error: "Enter a whole number" }).int({ error: "Enter a whole number" }).optional();

function checkFigure(spec: RuleFigure | null, value: number | undefined, path: string, ctx: z.RefinementCtx): number | null {
  if (!spec) return null;
  if (value === undefined || Number.isNaN(value)) {
    ctx.addIssue({ code: "custom", path: [path], message: `Enter the ${spec.label.toLowerCase()}` });
    return null;
  }
  if (value < spec.min || value > spec.max)
    ctx.addIssue({ code: "custom", path: [path], message: `Enter a whole number from ${spec.min} to ${spec.max} (${spec.unit})` });
  return value;
}

/**
 * One alert rule as an owner saves it (isomorphic: the rule's form and the action parse with it):
 * on or off, and the rule's figures within their bounds (./rules.ts).
 */
export const alertRuleSchema = z
  .object({
    rule: z.enum(ALERT_RULE_KINDS, { error: "Choose one of the alert rules" }),
    enabled: z.boolean({ error: "Choose on or off" }),
    threshold: figure,
    windowMinutes: figure,
  })
  .transform((input, ctx) => {
    const spec = ALERT_RULES[input.rule];
    const threshold = checkFigure(spec.threshold, input.threshold, "threshold", ctx);
    const windowMinutes = checkFigure(spec.window, input.windowMinutes, "windowMinutes", ctx);
    return { rule: input.rule, enabled: input.enabled, threshold, windowMinutes };
  });

export type AlertRuleInput = z.output<typeof alertRuleSchema>;
