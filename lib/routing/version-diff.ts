import { ruleConnectionIdsOf, type RoutingRule } from "./rules";
import { rulesKey } from "./rules-key";
import { ruleConditionsText, ruleOutcomeText, ruleThreeDsText } from "./rule-summary";

/**
 * What changed between two versions of one service's routing (routing versions), as sentences
 * a person reads: the rules added, removed, changed and moved (worded as the Routing page words a
 * rule, lib/routing/rule-summary.ts), and the connections that moved in, joined or left the
 * routing order. Pure: the API's comparison, the Routing page's history and the rollback's
 * confirmation all say the same thing.
 */

/** One version's content, as routing_versions keeps it. */
export type VersionContent = { version: number; rules: readonly RoutingRule[]; connectionIds: readonly string[] };

/** A connection as it is now: its label, and whether it is enabled, disabled or gone (deleted). */
export type ConnectionFact = { id: string; label: string; state: "enabled" | "disabled" | "deleted" };

export const VERSION_CHANGE_KINDS = ["rule_added", "rule_removed", "rule_changed", "rule_moved", "order_joined", "order_left", "order_moved"] as const;
type VersionChangeKind = (typeof VERSION_CHANGE_KINDS)[number];

export type VersionChange = {
  kind: VersionChangeKind;
  sentence: string;
  /** For rule changes: the rule's place (in the newer version; in the older one when removed) and name. */
  rule?: { position: number; name: string };
  /** For routing order changes: the connection. */
  connectionId?: string;
  /** A few words for a one-line summary ("rule “Big” added"). */
  short: string;
};

/** A connection of either version that is not as it was: deleted, or disabled now. */
export type ConnectionNote = { connectionId: string; state: "disabled" | "deleted"; sentence: string };

export type VersionDiff = { from: number; to: number; changes: VersionChange[]; notes: ConnectionNote[] };

/** Indexes (into `values`) of a longest strictly increasing subsequence: the pairs that kept their relative order. */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array(values.length).fill(-1);
  values.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (values[tails[mid]!]! < value) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  });
  const kept = new Set<number>();
  for (let at = tails.at(-1) ?? -1; at !== -1; at = previous[at]!) kept.add(at);
  return kept;
}

const same = (a: unknown, b: unknown) => rulesKey(a) === rulesKey(b);

/** Pairs each rule of `to` with one of `from`: identical rules first, then rules of the same name. */
function pairRules(from: readonly RoutingRule[], to: readonly RoutingRule[]): [number, number][] {
  const pairs: [number, number][] = [];
  const usedFrom = new Set<number>();
  const usedTo = new Set<number>();
  for (const matches of [(a: RoutingRule, b: RoutingRule) => same(a, b), (a: RoutingRule, b: RoutingRule) => a.name === b.name]) {
    to.forEach((rule, t) => {
      if (usedTo.has(t)) return;
      const f = from.findIndex((candidate, index) => !usedFrom.has(index) && matches(candidate, rule));
      if (f === -1) return;
      usedFrom.add(f);
      usedTo.add(t);
      pairs.push([f, t]);
    });
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}

const quoted = (text: string) => `“${text}”`;

/**
 * The changes from version `from` to version `to` (either may be the newer: a rollback's
 * confirmation compares the current version with an older one), and notes on the connections
 * either names that are deleted or disabled now. `currency` is the service's, for amounts.
 */
export function diffVersions(from: VersionContent, to: VersionContent, currency: string, facts: readonly ConnectionFact[]): VersionDiff {
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  const label = (id: string) => byId.get(id)?.label ?? id;
  const line = (rule: RoutingRule) => `${ruleConditionsText(rule, currency)} → ${ruleOutcomeText(rule, label)}${ruleThreeDsText(rule)}`;
  const changes: VersionChange[] = [];

  const pairs = pairRules(from.rules, to.rules);
  const kept = longestIncreasing(pairs.map(([, t]) => t));
  const pairedFrom = new Set(pairs.map(([f]) => f));
  const pairedTo = new Set(pairs.map(([, t]) => t));
  from.rules.forEach((rule, f) => {
    if (pairedFrom.has(f)) return;
    changes.push({
      kind: "rule_removed",
      rule: { position: f + 1, name: rule.name },
      sentence: `Rule ${f + 1} ${quoted(rule.name)} removed (${line(rule)}).`,
      short: `rule ${quoted(rule.name)} removed`,
    });
  });
  to.rules.forEach((rule, t) => {
    if (pairedTo.has(t)) return;
    changes.push({
      kind: "rule_added",
      rule: { position: t + 1, name: rule.name },
      sentence: `Rule ${t + 1} ${quoted(rule.name)} added (${line(rule)}).`,
      short: `rule ${quoted(rule.name)} added`,
    });
  });
  pairs.forEach(([f, t], index) => {
    const before = from.rules[f]!;
    const after = to.rules[t]!;
    if (!same(before, after)) {
      const parts: string[] = [];
      const [conditionsBefore, conditionsAfter] = [ruleConditionsText(before, currency), ruleConditionsText(after, currency)];
      const [outcomeBefore, outcomeAfter] = [ruleOutcomeText(before, label), ruleOutcomeText(after, label)];
      if (conditionsBefore !== conditionsAfter || !same(before.conditions, after.conditions)) {
        parts.push(`its conditions were ${quoted(conditionsBefore)}, now ${quoted(conditionsAfter)}`);
      }
      if (outcomeBefore !== outcomeAfter || !same(before.outcome, after.outcome)) {
        parts.push(`it sent invoices to ${quoted(outcomeBefore)}, now to ${quoted(outcomeAfter)}`);
      }
      if ((before.require_three_ds === true) !== (after.require_three_ds === true)) {
        parts.push(after.require_three_ds === true ? "it now requires 3-D Secure" : "it no longer requires 3-D Secure");
      }
      if (parts.length === 0) parts.push("its details changed");
      changes.push({
        kind: "rule_changed",
        rule: { position: t + 1, name: after.name },
        sentence: `Rule ${t + 1} ${quoted(after.name)} changed: ${parts.join("; ")}.`,
        short: `rule ${quoted(after.name)} changed`,
      });
    }
    if (!kept.has(index) && f !== t) {
      changes.push({
        kind: "rule_moved",
        rule: { position: t + 1, name: after.name },
        sentence: `Rule ${quoted(after.name)} moved from position ${f + 1} to ${t + 1}.`,
        short: `rule ${quoted(after.name)} moved`,
      });
    }
  });

  const fromIds = from.connectionIds;
  const toIds = to.connectionIds;
  const common = toIds.filter((id) => fromIds.includes(id));
  const keptOrder = longestIncreasing(common.map((id) => fromIds.indexOf(id)));
  toIds.forEach((id, t) => {
    if (!fromIds.includes(id)) {
      changes.push({
        kind: "order_joined",
        connectionId: id,
        sentence: `${quoted(label(id))} joined the routing order at position ${t + 1}.`,
        short: `${quoted(label(id))} joined the order`,
      });
    }
  });
  fromIds.forEach((id, f) => {
    if (!toIds.includes(id)) {
      changes.push({
        kind: "order_left",
        connectionId: id,
        sentence: `${quoted(label(id))} left the routing order (it was at position ${f + 1}).`,
        short: `${quoted(label(id))} left the order`,
      });
    }
  });
  common.forEach((id, index) => {
    const [f, t] = [fromIds.indexOf(id), toIds.indexOf(id)];
    if (keptOrder.has(index) || f === t) return;
    changes.push({
      kind: "order_moved",
      connectionId: id,
      sentence: `${quoted(label(id))} moved from position ${f + 1} to ${t + 1} in the routing order.`,
      short: `${quoted(label(id))} moved to ${t + 1}`,
    });
  });

  return { from: from.version, to: to.version, changes, notes: connectionNotes([from, to], facts) };
}

/** Every connection the versions name (rules and order), in the order they name them. */
function connectionsNamed(versions: readonly VersionContent[]): string[] {
  const ids = new Set<string>();
  for (const version of versions) {
    for (const rule of version.rules) for (const id of ruleConnectionIdsOf(rule)) ids.add(id);
    for (const id of version.connectionIds) ids.add(id);
  }
  return [...ids];
}

/** The connections the versions name that are deleted (or unknown) or disabled now, each once. */
export function connectionNotes(versions: readonly VersionContent[], facts: readonly ConnectionFact[]): ConnectionNote[] {
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  const notes: ConnectionNote[] = [];
  for (const id of connectionsNamed(versions)) {
    const fact = byId.get(id);
    if (!fact || fact.state === "deleted") {
      notes.push({ connectionId: id, state: "deleted", sentence: `${quoted(fact?.label ?? id)} no longer exists: it was deleted.` });
    } else if (fact.state === "disabled") {
      notes.push({ connectionId: id, state: "disabled", sentence: `${quoted(fact.label)} is disabled now: routing skips it until it is enabled again.` });
    }
  }
  return notes;
}

/** A one-line summary of what a version changed from the one before it. */
export function summaryLine(changes: readonly VersionChange[], max = 3): string {
  if (changes.length === 0) return "Same rules and order as the version before";
  const words = changes.slice(0, max).map((change) => change.short);
  const more = changes.length - words.length;
  const text = words.join(", ") + (more > 0 ? ` and ${more} more change${more === 1 ? "" : "s"}` : "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
