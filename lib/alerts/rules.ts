import { ALERT_RULE_KINDS, type AlertRuleKind } from "@/lib/db/enums";

/**
 * The alert rules every merchant has (plain data, safe for client components): what each watches,
 * the figure an owner may change and its default. A merchant's own values live in `alert_rules`
 * (./settings.ts); a rule without a row runs with these defaults, switched on.
 */

export { ALERT_RULE_KINDS, type AlertRuleKind };

/** A figure of a rule an owner may change, with its bounds and default. */
export type RuleFigure = { label: string; unit: string; min: number; max: number; defaultValue: number };

export type AlertRuleSpec = {
  label: string;
  /** When it fires and when it resolves, in the words the Alerts page shows. */
  watches: string;
  threshold: RuleFigure | null;
  window: RuleFigure | null;
};

/** Attempts a service needs in the window before its success rate is judged (fewer say too little). */
export const SUCCESS_RATE_MIN_ATTEMPTS = 10;

/** How long after its last use a rolled key's alert stays open (the key still works until its grace ends). */
export const ROLLED_KEY_QUIET_HOURS = 24;

export const ALERT_RULES: Readonly<Record<AlertRuleKind, AlertRuleSpec>> = {
  connection_health: {
    label: "Connection health",
    watches: "Fires when a connection turns degraded or failing; resolves when it is healthy again (or disabled or deleted).",
    threshold: null,
    window: null,
  },
  success_rate: {
    label: "Success rate of a service",
    watches: `Fires when a service's success rate in one mode falls below the threshold over the window (from ${SUCCESS_RATE_MIN_ATTEMPTS} attempts that say something about the providers); resolves when it is back above it.`,
    threshold: { label: "Success rate below", unit: "%", min: 1, max: 100, defaultValue: 80 },
    window: { label: "Window", unit: "minutes", min: 15, max: 1440, defaultValue: 60 },
  },
  webhook_failures: {
    label: "Webhook deliveries failing",
    watches:
      "Fires when an enabled webhook endpoint's latest deliveries all failed; resolves on its next successful delivery (or when it is disabled or deleted).",
    threshold: { label: "Failed deliveries in a row", unit: "deliveries", min: 1, max: 100, defaultValue: 5 },
    window: null,
  },
  dispute_opened: {
    label: "Dispute opened",
    watches: "Fires when a customer disputes a payment; resolves once the dispute is answered (evidence submitted or accepted) or closed.",
    threshold: null,
    window: null,
  },
  dispute_deadline: {
    label: "Dispute deadline near",
    watches: "Fires when an unanswered dispute's evidence deadline is this close; resolves once it is answered or closed.",
    threshold: { label: "Days before the deadline", unit: "days", min: 1, max: 30, defaultValue: 3 },
    window: null,
  },
  api_key_after_roll: {
    label: "API key used after it was rolled",
    watches: `Fires when a rolled key is still used during its grace period; resolves when it has not been used for ${ROLLED_KEY_QUIET_HOURS} hours, or stops working (grace over, revoked).`,
    threshold: null,
    window: null,
  },
};

/** A rule as it applies to a merchant: the owner's values, or the defaults. */
export type AlertRuleSetting = { rule: AlertRuleKind; enabled: boolean; threshold: number | null; windowMinutes: number | null };

export function defaultRuleSetting(rule: AlertRuleKind): AlertRuleSetting {
  const spec = ALERT_RULES[rule];
  return { rule, enabled: true, threshold: spec.threshold?.defaultValue ?? null, windowMinutes: spec.window?.defaultValue ?? null };
}

/** "80 %", "60 minutes", "5 deliveries": a figure as the page and the audit log word it. */
export function figureWords(figure: RuleFigure, value: number): string {
  return figure.unit === "%" ? `${value} %` : `${value} ${figure.unit}`;
}
