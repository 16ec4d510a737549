import { minorDigitsOf } from "@/lib/money";
import { CARD_BRAND_LABELS, type CardBrand, type CardFacts } from "../cards/bin";
import type { StoredSuccessOrdering } from "@/lib/db/routing-types";
import { capabilitySkipReason, missingCapability, type CapabilityAsk } from "@/lib/providers/capabilities";
import { ruleNeedsCard, type RoutingRule } from "./rules";
import { DEFAULT_SUCCESS_SETTINGS, explainSuccess, orderBySuccess, type SuccessSnapshot } from "./success";

/**
 * The one routing decision (rules, then the routing order, or a pin), pure and isomorphic: given the merchant's rules for a
 * service and mode, the connections as they are now, an invoice's facts and a random source, it
 * says where the invoice goes, in which order the rest are tried, and why, in one sentence.
 * Invoice creation, the hosted page's Pay (once the card is known), the payout's card at creation
 * and the simulator (page and `POST /api/routing/simulate`) all call `decideRoute`; nothing else
 * decides a route.
 */

/** `bySuccess`: the cascade is ordered by success rate (lib/routing/success.ts), not as listed. */
type CompiledOutcome =
  | { kind: "cascade"; ids: readonly string[]; bySuccess: boolean }
  | { kind: "split"; branches: readonly { weight: number; ids: readonly string[]; bySuccess: boolean }[] };

/** A saved rule made ready to match: amounts in minor units, lists as sets. */
export type CompiledRule = {
  /** 1-based place among the rules. */
  position: number;
  name: string;
  amountMin: bigint | null;
  amountMax: bigint | null;
  customerCountries: ReadonlySet<string> | null;
  cardBrands: ReadonlySet<string> | null;
  cardCountries: ReadonlySet<string> | null;
  needsCard: boolean;
  /** The rule asks the provider for 3-D Secure (connections whose provider cannot are passed over). */
  requireThreeDs: boolean;
  outcome: CompiledOutcome;
};

/** Everything about one service and mode that routing reads, built once per cache fill. */
export type RoutingTable = {
  rules: readonly CompiledRule[];
  /** The default rule: the routing order over the enabled connections offering the service. */
  defaultOrder: readonly string[];
  /** Connections of the saved routing order skipped while disabled (they keep their place). */
  defaultSkipped: readonly string[];
  /** Connection id → label, for every connection the rules or the order name that still exists. */
  labels: ReadonlyMap<string, string>;
  /** Connection id → why it cannot take invoices now ("disabled", "deleted", "does not offer …"). */
  unusable: ReadonlyMap<string, string>;
  /** Connection id → its provider's slug, for what the invoice asks of the provider; absent: nothing is checked. */
  providers?: ReadonlyMap<string, string>;
};

/** What routing knows about an invoice. `card` undefined: not known yet (a payment before Pay). */
export type RouteFacts = {
  amountMinor: bigint;
  customerCountry: string | null;
  card: CardFacts | null | undefined;
  /** What the invoice asks of the provider beyond a sale (`flow: "authorize"`, `tokenize`); absent or empty: a sale. */
  asks?: readonly CapabilityAsk[];
};

type RuleRef = { position: number; name: string };

export type RoutingDecision = {
  /** Where the invoice goes first, then the cascade; empty when no connection can take it. */
  connectionIds: string[];
  /** The rule that decided; null for the default rule (the routing order). */
  rule: RuleRef | null;
  /** For a split: the branch drawn (1-based), its share, and the draw in [0, 100). */
  branch: { position: number; weight: number; draw: number } | null;
  /** Connections the outcome names that were passed over, and why. */
  skipped: { id: string; why: string }[];
  /** Rules with a card condition passed over because the card was not known yet. */
  waitingForCard: RuleRef[];
  /** Rules that matched but had no connection able to take the invoice. */
  fellThrough: RuleRef[];
  /** The card facts used, when known (never the number). */
  card: { brand: CardBrand | null; country: string | null } | null;
  /** The rates, samples and exploration draw, when the outcome orders by success rate. */
  success: StoredSuccessOrdering | null;
  /** "required": the deciding rule requires 3-D Secure, so Pay asks the provider for it; "provider": the provider decides. */
  threeDs: "required" | "provider";
  explanation: string;
};

/** Decimal text → minor units of the currency; undefined when it has more decimals than the currency. */
export function decimalToMinor(text: string, currency: string): bigint | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const digits = minorDigitsOf(currency);
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > digits) return undefined;
  return BigInt(match[1]!) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, "0") || "0");
}

const setOf = (list: readonly string[] | undefined) => (list && list.length > 0 ? new Set(list) : null);

/** Saved rules → compiled ones. Amounts that do not fit the currency were refused at save; they match nothing here. */
export function compileRules(rules: readonly RoutingRule[], currency: string): CompiledRule[] {
  return rules.map((rule, index) => {
    const { conditions, outcome } = rule;
    return {
      position: index + 1,
      name: rule.name,
      amountMin: conditions.amount_min === undefined ? null : (decimalToMinor(conditions.amount_min, currency) ?? -1n),
      amountMax: conditions.amount_max === undefined ? null : (decimalToMinor(conditions.amount_max, currency) ?? -1n),
      customerCountries: setOf(conditions.customer_countries),
      cardBrands: setOf(conditions.card_brands),
      cardCountries: setOf(conditions.card_countries),
      needsCard: ruleNeedsCard(conditions),
      requireThreeDs: rule.require_three_ds === true,
      outcome:
        outcome.kind === "cascade"
          ? { kind: "cascade", ids: outcome.connection_ids, bySuccess: outcome.order_by === "success_rate" }
          : {
              kind: "split",
              branches: outcome.branches.map((branch) => ({
                weight: branch.weight,
                ids: branch.connection_ids,
                bySuccess: branch.order_by === "success_rate",
              })),
            },
    };
  });
}

type Match = "yes" | "no" | "needs_card";

/** Whether a rule's conditions hold for the facts; every condition must hold (an empty rule matches all). */
export function ruleMatches(rule: CompiledRule, facts: RouteFacts): Match {
  if (rule.amountMin !== null && facts.amountMinor < rule.amountMin) return "no";
  if (rule.amountMax !== null && facts.amountMinor > rule.amountMax) return "no";
  if (rule.customerCountries && (facts.customerCountry === null || !rule.customerCountries.has(facts.customerCountry))) return "no";
  if (!rule.needsCard) return "yes";
  if (facts.card === undefined) return "needs_card";
  const card = facts.card;
  if (rule.cardBrands && (card?.brand == null || !rule.cardBrands.has(card.brand))) return "no";
  if (rule.cardCountries && (card?.country == null || !rule.cardCountries.has(card.country))) return "no";
  return "yes";
}

/** Why a connection's provider cannot do what the invoice asks, in plain words; undefined when it can. */
function incapable(table: Pick<RoutingTable, "providers">, id: string, asks: readonly CapabilityAsk[] | undefined): string | undefined {
  if (!asks || asks.length === 0 || !table.providers) return undefined;
  const provider = table.providers.get(id);
  if (provider === undefined) return undefined;
  const missing = missingCapability(provider, asks);
  return missing === undefined ? undefined : capabilitySkipReason(provider, missing);
}

/** The usable ids of a list, in order, noting the others as skipped. */
function usableOf(table: RoutingTable, ids: readonly string[], skipped: RoutingDecision["skipped"], asks?: readonly CapabilityAsk[]): string[] {
  const usable: string[] = [];
  for (const id of ids) {
    const why = table.unusable.get(id) ?? incapable(table, id, asks);
    if (why === undefined && table.labels.has(id)) usable.push(id);
    else if (!skipped.some((entry) => entry.id === id)) skipped.push({ id, why: why ?? "deleted" });
  }
  return usable;
}

type Drawn = { ids: string[]; branch: RoutingDecision["branch"]; bySuccess: boolean };

/** Whether any rule of the table orders by success rate: only then does routing read the counts. */
export function tableUsesSuccessRate(table: Pick<RoutingTable, "rules">): boolean {
  return table.rules.some((rule) => (rule.outcome.kind === "cascade" ? rule.outcome.bySuccess : rule.outcome.branches.some((branch) => branch.bySuccess)));
}

/**
 * A split: one draw in [0, 100) picks a branch by its share. Branches without a usable connection
 * are left out and the others' shares scaled up, so a disabled provider's share goes to the rest.
 */
function drawBranch(
  table: RoutingTable,
  outcome: Extract<CompiledOutcome, { kind: "split" }>,
  random: () => number,
  skipped: RoutingDecision["skipped"],
  asks?: readonly CapabilityAsk[],
): Drawn | undefined {
  const live = outcome.branches
    .map((branch, index) => ({ index, weight: branch.weight, bySuccess: branch.bySuccess, ids: usableOf(table, branch.ids, skipped, asks) }))
    .filter((branch) => branch.ids.length > 0);
  if (live.length === 0) return undefined;
  const total = live.reduce((sum, branch) => sum + branch.weight, 0);
  const draw = Math.min(Math.max(random(), 0), 0.999999999) * 100;
  let cumulative = 0;
  for (const branch of live) {
    cumulative += (branch.weight / total) * 100;
    if (draw < cumulative) return { ids: branch.ids, branch: { position: branch.index + 1, weight: branch.weight, draw }, bySuccess: branch.bySuccess };
  }
  const last = live[live.length - 1]!;
  return { ids: last.ids, branch: { position: last.index + 1, weight: last.weight, draw }, bySuccess: last.bySuccess };
}

/**
 * `success`: the counts, settings and exploration draw for an outcome ordered by success rate
 * (callers pass it when `tableUsesSuccessRate`); without it such an outcome has no counts and
 * keeps its listed order, with the default settings and a draw from `random`.
 */
export function decideRoute(table: RoutingTable, facts: RouteFacts, random: () => number, success?: SuccessSnapshot): RoutingDecision {
  const skipped: RoutingDecision["skipped"] = [];
  const waitingForCard: RuleRef[] = [];
  const fellThrough: RuleRef[] = [];
  let chosen:
    | { rule: RuleRef | null; ids: string[]; branch: RoutingDecision["branch"]; success: StoredSuccessOrdering | null; threeDs: RoutingDecision["threeDs"] }
    | undefined;
  for (const rule of table.rules) {
    const match = ruleMatches(rule, facts);
    if (match === "needs_card") {
      waitingForCard.push({ position: rule.position, name: rule.name });
      continue;
    }
    if (match === "no") continue;
    const ref = { position: rule.position, name: rule.name };
    const ruleSkipped: RoutingDecision["skipped"] = [];
    const asks: readonly CapabilityAsk[] | undefined = rule.requireThreeDs ? [...(facts.asks ?? []), "three_ds"] : facts.asks;
    const drawn =
      rule.outcome.kind === "cascade"
        ? { ids: usableOf(table, rule.outcome.ids, ruleSkipped, asks), branch: null, bySuccess: rule.outcome.bySuccess }
        : drawBranch(table, rule.outcome, random, ruleSkipped, asks);
    skipped.push(...ruleSkipped);
    if (!drawn || drawn.ids.length === 0) {
      fellThrough.push(ref);
      continue;
    }
    const threeDs = rule.requireThreeDs ? "required" : "provider";
    if (drawn.bySuccess) {
      const ordered = orderBySuccess(drawn.ids, success ?? { stats: new Map(), settings: DEFAULT_SUCCESS_SETTINGS, draw: random() });
      chosen = { rule: ref, ids: ordered.ids, branch: drawn.branch, success: ordered.success, threeDs };
    } else chosen = { rule: ref, ids: drawn.ids, branch: drawn.branch, success: null, threeDs };
    break;
  }
  if (!chosen) {
    const ids: string[] = [];
    for (const id of table.defaultOrder) {
      const why = incapable(table, id, facts.asks);
      if (why === undefined) ids.push(id);
      else if (!skipped.some((entry) => entry.id === id)) skipped.push({ id, why });
    }
    chosen = { rule: null, ids, branch: null, success: null, threeDs: "provider" };
    for (const id of table.defaultSkipped) if (!skipped.some((entry) => entry.id === id)) skipped.push({ id, why: "disabled" });
  }
  const card = facts.card ? { brand: facts.card.brand, country: facts.card.country } : null;
  const decision = {
    connectionIds: chosen.ids,
    rule: chosen.rule,
    branch: chosen.branch,
    skipped,
    waitingForCard,
    fellThrough,
    card,
    success: chosen.success,
    threeDs: chosen.threeDs,
  };
  return { ...decision, explanation: explainDecision(table, decision) };
}

const quote = (rule: RuleRef) => `rule ${rule.position} “${rule.name}”`;
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The sentence an invoice carries: which rule, which branch, the order, and what was passed over. */
function explainDecision(table: Pick<RoutingTable, "labels">, decision: Omit<RoutingDecision, "explanation">): string {
  const label = (id: string) => table.labels.get(id) ?? id;
  const parts: string[] = [];
  if (decision.fellThrough.length > 0) {
    parts.push(
      `${capital(listText(decision.fellThrough.map(quote)))} matched but no connection of ${decision.fellThrough.length > 1 ? "theirs" : "its"} could take the invoice.`,
    );
  }
  const [first, ...rest] = decision.connectionIds;
  const then = rest.length > 0 ? `; if it fails softly, ${listText(rest.map(label))} ${rest.length > 1 ? "are" : "is"} tried next` : "";
  if (first === undefined) parts.push("No connection can take this invoice.");
  else if (decision.rule === null) {
    parts.push(
      `${decision.waitingForCard.length + decision.fellThrough.length > 0 || parts.length > 0 ? "No other" : "No"} rule applied, so the default rule (the routing order) sent it to ${label(first)}${then}.`,
    );
  } else if (decision.branch) {
    const draw = decision.branch.draw.toFixed(1);
    parts.push(
      `${capital(quote(decision.rule))} matched; its split drew branch ${decision.branch.position} (${decision.branch.weight}%, draw ${draw} of 100), which sent it to ${label(first)}${then}.`,
    );
  } else {
    parts.push(`${capital(quote(decision.rule))} matched and sent it to ${label(first)}${then}.`);
  }
  if (first !== undefined && decision.success) parts.push(explainSuccess(decision.success, label));
  if (first !== undefined && decision.threeDs === "required") {
    parts.push("The rule requires 3-D Secure: the provider is asked to authenticate the customer (a challenge, or frictionless when the issuer allows).");
  }
  if (decision.card) {
    const brand = decision.card.brand ? CARD_BRAND_LABELS[decision.card.brand] : "unknown brand";
    parts.push(`Card: ${brand}, issued in ${decision.card.country ?? "an unknown country"}.`);
  }
  if (decision.waitingForCard.length > 0) {
    parts.push(
      `${capital(listText(decision.waitingForCard.map(quote)))} ${decision.waitingForCard.length > 1 ? "depend" : "depends"} on the card and ${decision.waitingForCard.length > 1 ? "are" : "is"} checked again when it is known.`,
    );
  }
  if (decision.skipped.length > 0) {
    parts.push(`Skipped: ${listText(decision.skipped.map((entry) => `${label(entry.id)} (${entry.why})`))}.`);
  }
  return parts.join(" ");
}
