import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections, routingVersions } from "@/lib/db/schema";
import { fail, ok, problem, type Problem, type Result } from "@/lib/problems";
import type { Mode } from "@/lib/providers";
import { planRollback, routingConnections, writeRouting, type RoutingConnectionRow, type RoutingOrder, type RoutingScope } from "./orders";
import { ruleConnectionIdsOf, type RoutingRule } from "./rules";
import { connectionNotes, diffVersions, summaryLine, type ConnectionFact, type ConnectionNote, type VersionChange, type VersionDiff } from "./version-diff";

/**
 * The versions of one service's routing in one mode (routing versions: history, comparison, rollback): every save that changed
 * something is a row of routing_versions (rules, order, author, time). Here: the history newest
 * first, one version, the comparison of two, and the rollback, which saves an old version again
 * as a new one through the same write as a save (writeRouting: checks, lock, version number,
 * audit, route cache).
 */

const VERSIONS_PAGE_DEFAULT = 20;
export const VERSIONS_PAGE_MAX = 100;

export type RoutingVersion = {
  version: number;
  rules: RoutingRule[];
  connectionIds: string[];
  savedBy: string | null;
  savedAt: Date;
  /** The version this one restored, when it is a rollback. */
  restoredFrom: number | null;
  /** Whether routing uses it now (the latest). */
  current: boolean;
  /** One line: what it changed from the version before it. */
  summary: string;
};

export type VersionPage = {
  versions: RoutingVersion[];
  /** The number of the latest version (0: never saved). */
  current: number;
  /** The version to ask the next page before; undefined on the last page. */
  before: number | undefined;
};

type VersionRow = typeof routingVersions.$inferSelect;

/** Every connection of the merchant, deleted ones too, as it is now: the comparisons name them by label. */
async function connectionFacts(db: Db, merchantId: string): Promise<ConnectionFact[]> {
  const rows = await db
    .select({ id: connections.id, label: connections.label, enabled: connections.enabled, deletedAt: connections.deletedAt })
    .from(connections)
    .where(eq(connections.merchantId, merchantId));
  return rows.map((row) => ({ id: row.id, label: row.label, state: row.deletedAt ? "deleted" : row.enabled ? "enabled" : "disabled" }));
}

const scopeOf = (merchantId: string, order: Pick<RoutingOrder, "service" | "mode">) =>
  and(eq(routingVersions.merchantId, merchantId), eq(routingVersions.service, order.service), eq(routingVersions.mode, order.mode as Mode));

const contentOf = (row: Pick<VersionRow, "version" | "rules" | "connectionIds">) => ({
  version: row.version,
  rules: row.rules,
  connectionIds: row.connectionIds,
});

function describe(row: VersionRow, previous: VersionRow | undefined, order: RoutingOrder, facts: readonly ConnectionFact[]): RoutingVersion {
  let summary: string;
  if (row.restoredFrom !== null) summary = `Rolled back to version ${row.restoredFrom}`;
  else if (!previous) {
    const rules = row.rules.length ? `${row.rules.length} rule${row.rules.length === 1 ? "" : "s"}, then ` : "";
    const labels = new Map(facts.map((fact) => [fact.id, fact.label]));
    summary = `First save: ${rules}${row.connectionIds.map((id) => labels.get(id) ?? id).join(", ")}`;
  } else summary = summaryLine(diffVersions(contentOf(previous), contentOf(row), order.currency, facts).changes);
  return {
    version: row.version,
    rules: row.rules,
    connectionIds: row.connectionIds,
    savedBy: row.savedBy,
    savedAt: row.savedAt,
    restoredFrom: row.restoredFrom,
    current: row.version === order.version,
    summary,
  };
}

/**
 * One page of versions newest first, `size` at a time (at most VERSIONS_PAGE_MAX), before version
 * `before` when given; the API's list and the Routing page's history both read them here. `rows`
 * holds one more than the page: the summary of its oldest version compares it with the one before.
 */
async function versionRows(db: Db, merchantId: string, order: RoutingOrder, page: { size?: number; before?: number }) {
  const size = Math.min(Math.max(page.size ?? VERSIONS_PAGE_DEFAULT, 1), VERSIONS_PAGE_MAX);
  const where = page.before === undefined ? scopeOf(merchantId, order) : and(scopeOf(merchantId, order), lt(routingVersions.version, page.before));
  const rows = await db
    .select()
    .from(routingVersions)
    .where(where)
    .orderBy(desc(routingVersions.version))
    .limit(size + 1);
  const shown = rows.slice(0, size);
  return { rows, shown, olderBefore: rows.length > size ? shown.at(-1)?.version : undefined };
}

/** The versions newest first, `size` at a time (at most VERSIONS_PAGE_MAX), before version `before` when given. */
export async function listRoutingVersions(
  db: Db,
  merchantId: string,
  order: RoutingOrder,
  page: { size?: number; before?: number } = {},
): Promise<VersionPage> {
  const { rows, shown, olderBefore } = await versionRows(db, merchantId, order, page);
  const facts = await connectionFacts(db, merchantId);
  const versions = shown.map((row, index) => describe(row, rows[index + 1], order, facts));
  return { versions, current: order.version, before: olderBefore };
}

async function versionRow(db: Db, merchantId: string, order: RoutingOrder, version: number): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(routingVersions)
    .where(and(scopeOf(merchantId, order), eq(routingVersions.version, version)))
    .limit(1);
  return row;
}

const unknownVersion = (order: RoutingOrder, version: number, at: string): Problem =>
  problem(
    "unknown_version",
    order.version === 0
      ? `${order.service} (${order.mode}) has no versions yet: its routing was never saved`
      : `Version ${version} of ${order.service} (${order.mode}) does not exist: the versions are 1 to ${order.version}`,
    [at],
  );

/** One version, with its summary. */
export async function getRoutingVersion(db: Db, merchantId: string, order: RoutingOrder, version: number): Promise<Result<RoutingVersion>> {
  const row = await versionRow(db, merchantId, order, version);
  if (!row) return fail([unknownVersion(order, version, "version")]);
  const previous = version > 1 ? await versionRow(db, merchantId, order, version - 1) : undefined;
  return ok(describe(row, previous, order, await connectionFacts(db, merchantId)));
}

export type VersionComparison = VersionDiff & { service: string; mode: Mode };

/** What changed from version `from` to version `to` (from ≤ to), as sentences, and the connections either names that are gone or disabled now. */
export async function compareRoutingVersions(db: Db, merchantId: string, order: RoutingOrder, from: number, to: number): Promise<Result<VersionComparison>> {
  const [a, b] = await Promise.all([versionRow(db, merchantId, order, from), versionRow(db, merchantId, order, to)]);
  const problems = [...(a ? [] : [unknownVersion(order, from, "from")]), ...(b ? [] : [unknownVersion(order, to, "to")])];
  if (!a || !b) return fail(problems);
  if (from > to)
    return fail([problem("invalid_range", `Version ${from} comes after version ${to}: compare the older version (from) with the newer (to)`, ["from"])]);
  const facts = await connectionFacts(db, merchantId);
  return ok({ service: order.service, mode: order.mode, ...diffVersions(contentOf(a), contentOf(b), order.currency, facts) });
}

/** What a rollback to one version would do, for the confirmation: the changes from the current version, and why it is refused if it is. */
type RollbackPreview = {
  version: number;
  /** True when the version has the rules and order routing uses now: a rollback changes nothing. */
  unchanged: boolean;
  changes: VersionChange[];
  /** Connections the version names that are deleted or disabled now, or that the restored order leaves out. */
  notes: (ConnectionNote | { connectionId: string; state: "left_out"; sentence: string })[];
  /** Sentences saying why this version cannot be restored; empty when it can. */
  refusals: string[];
};

/**
 * A rollback restores the version's rules exactly, or not at all: a rule naming a connection that
 * was deleted since is refused (dropping it would change where the rule sends invoices), as is a
 * rule none of whose connections is enabled (the save refuses it too). The routing order leaves
 * out deleted connections, as it always does, and says so.
 */
function restoreRefusals(version: number, rules: readonly RoutingRule[], facts: readonly ConnectionFact[]): string[] {
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  const refusals: string[] = [];
  rules.forEach((rule, index) => {
    const ids = ruleConnectionIdsOf(rule);
    const named = `rule ${index + 1} “${rule.name}”`;
    const gone = ids.filter((id) => (byId.get(id)?.state ?? "deleted") === "deleted");
    if (gone.length) {
      const labels = gone.map((id) => `“${byId.get(id)?.label ?? id}”`).join(", ");
      refusals.push(
        `Version ${version} cannot be restored: ${named} sends invoices to ${labels}, which ${gone.length === 1 ? "was" : "were"} deleted. Edit the rules instead.`,
      );
      return;
    }
    const lists = rule.outcome.kind === "cascade" ? [rule.outcome.connection_ids] : rule.outcome.branches.map((branch) => branch.connection_ids);
    for (const list of lists) {
      if (list.some((id) => byId.get(id)?.state === "enabled")) continue;
      const labels = list.map((id) => `“${byId.get(id)?.label ?? id}”`).join(", ");
      refusals.push(
        `Version ${version} cannot be restored: ${named} sends invoices only to ${labels}, and none of ${list.length > 1 ? "them is" : "it is"} enabled now. Enable one first.`,
      );
      break;
    }
  });
  return refusals;
}

/**
 * The confirmation of a rollback says what the write would do: the order and the refusals come from
 * planRollback, the code writeRouting runs (restoreRefusals only words its refusals better).
 */
function previewOf(row: VersionRow, order: RoutingOrder, facts: readonly ConnectionFact[], rows: readonly RoutingConnectionRow[]): RollbackPreview {
  const plan = planRollback(rows, order, contentOf(row));
  const now = { version: order.version, rules: order.rules, connectionIds: order.connections.map((c) => c.connectionId) };
  const diff = diffVersions(now, { version: row.version, rules: row.rules, connectionIds: plan.connectionIds }, order.currency, facts);
  const left = row.connectionIds
    .filter((id) => !plan.connectionIds.includes(id))
    .map((id): RollbackPreview["notes"][number] => {
      const fact = facts.find((candidate) => candidate.id === id);
      return !fact || fact.state === "deleted"
        ? { connectionId: id, state: "deleted", sentence: `“${fact?.label ?? id}” no longer exists and is left out of the routing order.` }
        : {
            connectionId: id,
            state: "left_out",
            sentence: `“${fact.label}” no longer offers ${order.service} in ${order.mode} mode and is left out of the routing order.`,
          };
    });
  return {
    version: row.version,
    unchanged: diff.changes.length === 0,
    changes: diff.changes,
    notes: [...left, ...connectionNotes([contentOf(row)], facts).filter((note) => note.state === "disabled")],
    refusals: refusalsOf(row.version, plan.problems, row.rules, facts),
  };
}

/** The save's problems with a rollback, in restoreRefusals' words where it has them. */
function refusalsOf(version: number, problems: readonly Problem[], rules: readonly RoutingRule[], facts: readonly ConnectionFact[]): string[] {
  if (problems.length === 0) return [];
  const worded = restoreRefusals(version, rules, facts);
  return worded.length ? worded : problems.map((entry) => `Version ${version} cannot be restored: ${entry.message}`);
}

/** One version as the Routing page's history shows it, plain JSON for the client component. */
type HistoryVersion = {
  version: number;
  savedBy: string | null;
  savedAt: string;
  summary: string;
  restoredFrom: number | null;
  current: boolean;
  /** What a rollback to it would do (none for the current version). */
  rollback: { unchanged: boolean; changes: string[]; notes: string[]; refusals: string[] } | null;
};

/** A page of the history: its versions newest first, and the version to ask the next (older) page before; null on the last page. */
export type HistoryPage = { versions: HistoryVersion[]; olderBefore: number | null };

/** The Routing page's history of one order, plain JSON for the client component. */
export type RoutingHistoryView = HistoryPage & {
  current: number;
  /** The latest version compared with the one before it; null with fewer than two versions. */
  comparison: { from: number; to: number; changes: string[]; notes: string[] } | null;
};

/** versionRows' page, each version with its summary and its rollback's confirmation text, for the client component. */
async function historyRows(db: Db, merchantId: string, order: RoutingOrder, page: { size: number; before?: number }) {
  const { rows, shown, olderBefore } = await versionRows(db, merchantId, order, page);
  const [facts, connectionRows] = await Promise.all([connectionFacts(db, merchantId), routingConnections(db, merchantId)]);
  const versions = shown.map((row, index): HistoryVersion => {
    const described = describe(row, rows[index + 1], order, facts);
    const preview = described.current ? undefined : previewOf(row, order, facts, connectionRows);
    return {
      version: row.version,
      savedBy: row.savedBy,
      savedAt: row.savedAt.toISOString(),
      summary: described.summary,
      restoredFrom: row.restoredFrom,
      current: described.current,
      rollback: preview
        ? {
            unchanged: preview.unchanged,
            changes: preview.changes.map((c) => c.sentence),
            notes: preview.notes.map((n) => n.sentence),
            refusals: preview.refusals,
          }
        : null,
    };
  });
  return { rows, facts, page: { versions, olderBefore: olderBefore ?? null } satisfies HistoryPage };
}

/** The newest `size` versions with their summaries, each rollback's confirmation text and the default comparison: two statements. */
export async function getRoutingHistory(db: Db, merchantId: string, order: RoutingOrder, size = VERSIONS_PAGE_DEFAULT): Promise<RoutingHistoryView> {
  const { rows, facts, page } = await historyRows(db, merchantId, order, { size });
  const [latest, previous] = rows;
  const comparison = latest && previous ? diffVersions(contentOf(previous), contentOf(latest), order.currency, facts) : undefined;
  return {
    current: order.version,
    ...page,
    comparison: comparison
      ? { from: comparison.from, to: comparison.to, changes: comparison.changes.map((c) => c.sentence), notes: comparison.notes.map((n) => n.sentence) }
      : null,
  };
}

/** The history's older versions, for "Show older versions": `size` of them before version `before`. */
export async function getOlderRoutingHistory(
  db: Db,
  merchantId: string,
  order: RoutingOrder,
  before: number,
  size = VERSIONS_PAGE_DEFAULT,
): Promise<HistoryPage> {
  return (await historyRows(db, merchantId, order, { size, before })).page;
}

export type RollbackOutcome = {
  order: RoutingOrder;
  /** The version restored. */
  restored: number;
  /** The new version the rollback saved; null when nothing changed. */
  version: number | null;
  /** One sentence for the person: "Rolled back to version 2 as version 5." or why nothing changed. */
  message: string;
};

/**
 * Rolls back to version `target`: a new version whose rules and order are the target's, written by
 * writeRouting (the save's checks, its lock and retry, so two rollbacks or saves at once never take
 * one version number; the route cache is forgotten), recorded as `routing.rolled_back`. A target
 * that routing uses already (the current version, or one equal to it) changes nothing and says so.
 * Problems are reported at `version`: it is all the caller sent.
 */
export async function rollbackRouting(db: Db, scope: RoutingScope, order: RoutingOrder, target: number): Promise<Result<RollbackOutcome>> {
  const row = await versionRow(db, scope.merchantId, order, target);
  if (!row) return fail([unknownVersion(order, target, "version")]);
  const [facts, rows] = await Promise.all([connectionFacts(db, scope.merchantId), routingConnections(db, scope.merchantId)]);
  const refusals = refusalsOf(target, planRollback(rows, order, contentOf(row)).problems, row.rules, facts);
  if (refusals.length) return fail(refusals.map((message) => problem("cannot_restore", message, ["version"])));
  const written = await writeRouting(
    db,
    scope,
    { service: order.service, mode: order.mode, connectionIds: row.connectionIds, rules: row.rules },
    { restoredFrom: target },
  );
  if (!written.ok) return fail(written.problems.map((entry) => problem(entry.code, `Version ${target} cannot be restored: ${entry.message}`, ["version"])));
  const { order: after, written: version } = written.value;
  const message =
    version === undefined
      ? target === order.version
        ? `Version ${target} is the current version: nothing changed.`
        : `Version ${target} has the rules and order routing uses now: nothing changed.`
      : `Rolled back to version ${target} as version ${version}.`;
  return ok({ order: after, restored: target, version: version ?? null, message });
}
