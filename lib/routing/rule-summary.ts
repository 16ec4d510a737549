// Shared by the Routing page (components/routing) and the version history's comparisons (lib/routing/version-diff.ts, the API).
import { CARD_BRAND_LABELS, type CardBrand } from "@/lib/cards/bin";
import type { RoutingRule } from "@/lib/routing/rules";

/** A rule in one line a merchant can read: "When … → A, then B" or "→ 70% A / 30% B". */
export function ruleConditionsText(rule: RoutingRule, currency: string): string {
  const c = rule.conditions;
  const parts: string[] = [];
  if (c.amount_min !== undefined && c.amount_max !== undefined) parts.push(`amount ${c.amount_min}–${c.amount_max} ${currency}`);
  else if (c.amount_min !== undefined) parts.push(`amount at least ${c.amount_min} ${currency}`);
  else if (c.amount_max !== undefined) parts.push(`amount at most ${c.amount_max} ${currency}`);
  if (c.customer_countries?.length) parts.push(`customer in ${c.customer_countries.join(", ")}`);
  if (c.card_brands?.length) parts.push(`card ${c.card_brands.map((brand) => CARD_BRAND_LABELS[brand as CardBrand] ?? brand).join(" or ")}`);
  if (c.card_countries?.length) parts.push(`card issued in ${c.card_countries.join(", ")}`);
  return parts.length ? `When ${parts.join(", ")}` : "Every invoice";
}

/** "A, then B", or "A or B, best success rate first" when the cascade is ordered by success rate. */
export function ruleOutcomeText(rule: RoutingRule, label: (id: string) => string): string {
  const list = (ids: readonly string[], orderBy: string | undefined) =>
    orderBy === "success_rate" && ids.length > 1 ? `${ids.map(label).join(" or ")}, best success rate first` : ids.map(label).join(", then ");
  if (rule.outcome.kind === "cascade") return list(rule.outcome.connection_ids, rule.outcome.order_by);
  return rule.outcome.branches.map((branch) => `${branch.weight}% to ${list(branch.connection_ids, branch.order_by)}`).join(" / ");
}

/** " · 3-D Secure required" after a rule's line when it requires 3-D Secure; empty otherwise. */
export function ruleThreeDsText(rule: Pick<RoutingRule, "require_three_ds">): string {
  return rule.require_three_ds === true ? " · 3-D Secure required" : "";
}
