import { and, eq, isNull } from "drizzle-orm";
import { recordAudit, type Actor } from "@/lib/audit/record";
import { forgetRoutes } from "@/lib/connections/route-cache";
import type { Db } from "@/lib/db/client";
import { connections, routingOrders, routingVersions } from "@/lib/db/schema";
import { fail, ok, problem, type Problem, type Result } from "@/lib/problems";
import { findService, getKind, getProvider, servicesForConnection, type InvoiceDirection, type Mode } from "@/lib/providers";
import { providerCan } from "@/lib/providers/capabilities";
import { mergeOrder, positionChanges } from "./order";
import { routingOrderId, type RoutingOrderInput } from "./schemas";
import { decimalToMinor } from "./decide";
import { amountRangeEmpty } from "./rule-checks";
import type { RoutingRule } from "./rules";
import { rulesKey } from "./rules-key";
import { isUniqueViolation } from "@/lib/db/errors";

export type RoutingOrderConnection = {
  connectionId: string;
  label: string;
  provider: string;
  providerName: string;
  kind: string;
  kindLabel: string;
  enabled: boolean;
  /** 1-based place in the order; disabled connections keep theirs and are skipped by routing. */
  position: number;
};

/** One service in one mode: every connection of the merchant offering it, in routing order. */
export type RoutingOrder = {
  id: string;
  service: string;
  currency: string;
  direction: InvoiceDirection;
  mode: Mode;
  connections: RoutingOrderConnection[];
  /** The rules before the default rule (the connections above), first to last. */
  rules: RoutingRule[];
  /** Saves so far (each one a version); 0 while never saved. */
  version: number;
  /** Null until someone saves this order: until then it is oldest first. */
  updatedAt: Date | null;
  updatedBy: string | null;
};

/** Who saves an order: the merchant and the person or API key the audit trail names. */
export type RoutingScope = { merchantId: string; actor: Actor };

type Row = {
  id: string;
  label: string;
  provider: string;
  kind: string;
  mode: Mode;
  enabled: boolean;
  publicCredentials: Record<string, unknown>;
  createdAt: Date;
};

async function connectionRows(db: Db, merchantId: string): Promise<Row[]> {
  return db
    .select({
      id: connections.id,
      label: connections.label,
      provider: connections.provider,
      kind: connections.kind,
      mode: connections.mode,
      enabled: connections.enabled,
      publicCredentials: connections.publicCredentials,
      createdAt: connections.createdAt,
    })
    .from(connections)
    .where(and(eq(connections.merchantId, merchantId), isNull(connections.deletedAt)));
}

function servicesOf(row: Row): string[] {
  const kind = getKind(row.provider, row.kind);
  return kind ? servicesForConnection(row.provider, kind, row.publicCredentials).map((service) => service.code) : [];
}

function toEntry(row: Row, index: number): RoutingOrderConnection {
  return {
    connectionId: row.id,
    label: row.label,
    provider: row.provider,
    providerName: getProvider(row.provider)?.name ?? row.provider,
    kind: row.kind,
    kindLabel: getKind(row.provider, row.kind)?.label ?? row.kind,
    enabled: row.enabled,
    position: index + 1,
  };
}

const MODE_ORDER: Record<Mode, number> = { live: 0, test: 1 };
const DIRECTION_ORDER: Record<InvoiceDirection, number> = { payment: 0, payout: 1 };

/**
 * The Routing page and `GET /api/routing`: every service × mode the merchant has at least one
 * (enabled or disabled, not deleted) connection for, each with its connections in routing order.
 * Payments before payouts, then by service code, live before test. Two statements.
 */
export async function getRoutingOrders(db: Db, merchantId: string): Promise<RoutingOrder[]> {
  const rows = await connectionRows(db, merchantId);
  const saved = await db.select().from(routingOrders).where(eq(routingOrders.merchantId, merchantId));
  const groups = new Map<string, { service: string; mode: Mode; rows: Row[] }>();
  for (const row of rows) {
    for (const service of servicesOf(row)) {
      const id = routingOrderId(service, row.mode);
      const group = groups.get(id) ?? { service, mode: row.mode, rows: [] };
      group.rows.push(row);
      groups.set(id, group);
    }
  }
  const orders: RoutingOrder[] = [];
  for (const [id, group] of groups) {
    const spec = findService(group.service);
    if (!spec) continue;
    const stored = saved.find((order) => order.service === group.service && order.mode === group.mode);
    orders.push({
      id,
      service: group.service,
      currency: spec.currency,
      direction: spec.direction,
      mode: group.mode,
      connections: mergeOrder(stored?.connectionIds ?? [], group.rows).map(toEntry),
      rules: stored?.rules ?? [],
      version: stored?.version ?? 0,
      updatedAt: stored?.updatedAt ?? null,
      updatedBy: stored?.updatedBy ?? null,
    });
  }
  return orders.sort(
    (a, b) => DIRECTION_ORDER[a.direction] - DIRECTION_ORDER[b.direction] || a.service.localeCompare(b.service) || MODE_ORDER[a.mode] - MODE_ORDER[b.mode],
  );
}

export async function getRoutingOrder(db: Db, merchantId: string, service: string, mode: Mode): Promise<RoutingOrder | undefined> {
  return (await getRoutingOrders(db, merchantId)).find((order) => order.service === service && order.mode === mode);
}

/** Every id must name one of the merchant's connections of that mode offering the service, once. */
function idsProblems(
  ids: readonly string[],
  input: Pick<RoutingOrderInput, "service" | "mode">,
  rows: readonly Row[],
  at: readonly (string | number)[],
): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    const path = [...at, index];
    const row = rows.find((candidate) => candidate.id === id);
    if (seen.has(id)) problems.push(problem("duplicate", `${row?.label ?? id} is listed more than once`, path));
    else if (!row) problems.push(problem("not_found", `No connection ${id} exists for this merchant`, path));
    else if (row.mode !== input.mode) problems.push(problem("mode_mismatch", `${row.label} is a ${row.mode}-mode connection, not ${input.mode}`, path));
    else if (findService(input.service) && !servicesOf(row).includes(input.service)) {
      problems.push(problem("service_not_offered", `${row.label} does not offer ${input.service}`, path));
    }
    seen.add(id);
  });
  return problems;
}

/**
 * A rule is refused at save when an amount does not fit the currency or the range is empty, or
 * when its outcome (each branch of a split) has no enabled connection that can serve the service:
 * such a rule could never take an invoice.
 */
function ruleProblems(rules: readonly RoutingRule[], input: Pick<RoutingOrderInput, "service" | "mode">, rows: readonly Row[]): Problem[] {
  const problems: Problem[] = [];
  const currency = findService(input.service)?.currency ?? "";
  const serving = (id: string) => rows.some((row) => row.id === id && row.enabled && row.mode === input.mode && servicesOf(row).includes(input.service));
  const labelOf = (id: string) => rows.find((row) => row.id === id)?.label ?? id;
  const providerOf = (id: string) => rows.find((row) => row.id === id)?.provider ?? "";
  rules.forEach((rule, index) => {
    const at = ["rules", index];
    const named = `Rule ${index + 1} “${rule.name}”`;
    const { amount_min: min, amount_max: max } = rule.conditions;
    for (const [key, value] of [
      ["amount_min", min],
      ["amount_max", max],
    ] as const) {
      if (value !== undefined && decimalToMinor(value, currency) === undefined) {
        problems.push(problem("invalid_amount", `${named}: ${value} has more decimals than ${currency} allows`, [...at, "conditions", key]));
      }
    }
    if (amountRangeEmpty(min, max)) {
      problems.push(
        problem("empty_range", `${named}: the lowest amount ${min} is above the highest ${max}, so it matches nothing`, [...at, "conditions", "amount_max"]),
      );
    }
    const outcome = rule.outcome;
    const lists =
      outcome.kind === "cascade"
        ? [{ ids: outcome.connection_ids, path: [...at, "outcome", "connection_ids"], what: "" }]
        : outcome.branches.map((branch, b) => ({
            ids: branch.connection_ids,
            path: [...at, "outcome", "branches", b, "connection_ids"],
            what: ` branch ${b + 1}`,
          }));
    for (const list of lists) {
      const listed = idsProblems(list.ids, input, rows, list.path);
      problems.push(...listed);
      if (listed.length === 0 && !list.ids.some(serving)) {
        problems.push(
          problem(
            "no_enabled_connection",
            `${named}${list.what} sends invoices only to ${list.ids.map(labelOf).join(", ")}, and none of ${list.ids.length > 1 ? "them is" : "it is"} enabled: enable one or add an enabled connection that offers ${input.service}`,
            list.path,
          ),
        );
      }
      // A rule requiring 3-D Secure passes over connections whose provider cannot (lib/routing/decide.ts): one of them must.
      else if (listed.length === 0 && rule.require_three_ds === true && !list.ids.some((id) => serving(id) && providerCan(providerOf(id), "three_ds"))) {
        problems.push(
          problem(
            "three_ds_not_offered",
            `${named}${list.what} requires 3-D Secure, but no enabled connection it sends invoices to is of a provider that can authenticate with it: add one, or do not require 3-D Secure`,
            [...at, "require_three_ds"],
          ),
        );
      }
    }
    if (outcome.kind === "split") {
      const total = outcome.branches.reduce((sum, branch) => sum + branch.weight, 0);
      if (total !== 100) problems.push(problem("split_total", `${named}: the shares add up to ${total}%, not 100%`, [...at, "outcome", "branches"]));
    }
  });
  return problems;
}

function orderProblems(input: RoutingOrderInput, rows: readonly Row[]): Problem[] {
  const problems: Problem[] = [];
  if (!findService(input.service)) return [problem("unknown_service", `Unknown service "${input.service}"`, ["service"])];
  if (input.connectionIds) problems.push(...idsProblems(input.connectionIds, input, rows, ["connectionIds"]));
  if (input.rules) problems.push(...ruleProblems(input.rules, input, rows));
  return problems;
}

const sameRules = (a: readonly RoutingRule[], b: readonly RoutingRule[]) => rulesKey(a) === rulesKey(b);

/**
 * Saves the routing of one service in one mode: the routing order (the default rule) and/or the
 * rules before it; what is not sent stays as saved. The order: the ids sent first, in that order,
 * then the connections they leave out, oldest first; the whole resulting order is stored, so what
 * the owner saw is what routing uses. Rules are checked first (ruleProblems). Each save that
 * changes something is a new version (routing_versions: rules, order, author, time) in the same
 * transaction; and one audit entry (`routing.saved`: the order, each moved connection's old and new place, the rules' version);
 * a save that changes nothing writes nothing. The route cache is forgotten once the transaction is over.
 */
export async function saveRoutingOrder(db: Db, scope: RoutingScope, input: RoutingOrderInput): Promise<Result<RoutingOrder>> {
  const saved = await writeRouting(db, scope, input);
  return saved.ok ? ok(saved.value.order) : saved;
}

/** What a write would check and store, before any lock: the input (a rollback's order without connections that no longer offer the service), the connections offering it, the save's problems. */
function planWrite(rows: readonly Row[], request: RoutingOrderInput, options: { restoredFrom?: number }) {
  const offering = rows.filter((row) => row.mode === request.mode && servicesOf(row).includes(request.service));
  const input =
    options.restoredFrom !== undefined && request.connectionIds
      ? { ...request, connectionIds: request.connectionIds.filter((id) => offering.some((row) => row.id === id)) }
      : request;
  return { input, offering, problems: orderProblems(input, rows) };
}

/** The connections routing checks a write against (the merchant's, not deleted), for planRollback. */
export const routingConnections = connectionRows;
export type RoutingConnectionRow = Row;

/**
 * What a rollback to a version would store and whether the save's checks refuse it, by the code
 * writeRouting runs (planWrite, mergeOrder): the Routing page's confirmation says what the write does.
 */
export function planRollback(
  rows: readonly Row[],
  order: Pick<RoutingOrder, "service" | "mode">,
  version: { version: number; connectionIds: string[]; rules: RoutingRule[] },
) {
  const plan = planWrite(
    rows,
    { service: order.service, mode: order.mode, connectionIds: version.connectionIds, rules: version.rules },
    { restoredFrom: version.version },
  );
  return { connectionIds: mergeOrder(plan.input.connectionIds ?? [], plan.offering).map((row) => row.id), problems: plan.problems };
}

/** What writeRouting did: the order after it, and the version it wrote (undefined: nothing changed, nothing written). */
export type RoutingWrite = { order: RoutingOrder; written: number | undefined };

/**
 * The one write of a routing (saveRoutingOrder, and rollbackRouting in versions.ts): the checks,
 * the lock, the version number, the version row, the audit entry and the forgotten cache. With
 * `restoredFrom` it is a rollback to that version: the ids of connections that no longer offer
 * the service are left out of the order (as mergeOrder leaves out deleted ones), the version row
 * says which version it restored, and the audit entry is `routing.rolled_back`.
 */
export async function writeRouting(
  db: Db,
  scope: RoutingScope,
  request: RoutingOrderInput,
  options: { restoredFrom?: number } = {},
): Promise<Result<RoutingWrite>> {
  const { input, offering, problems } = planWrite(await connectionRows(db, scope.merchantId), request, options);
  if (problems.length) return fail(problems);
  let written: number | undefined;
  try {
    const save = () =>
      db.transaction(async (txRaw) => {
        written = undefined;
        const tx = txRaw as unknown as Db;
        const where = and(eq(routingOrders.merchantId, scope.merchantId), eq(routingOrders.service, input.service), eq(routingOrders.mode, input.mode));
        const [stored] = await tx
          .select({ ids: routingOrders.connectionIds, rules: routingOrders.rules, version: routingOrders.version })
          .from(routingOrders)
          .where(where)
          .for("update");
        const before = mergeOrder(stored?.ids ?? [], offering).map((row) => row.id);
        const after = mergeOrder(input.connectionIds ?? before, offering).map((row) => row.id);
        const rulesBefore = stored?.rules ?? [];
        const rules = input.rules ?? rulesBefore;
        const changes = positionChanges(before, after);
        if (changes.length === 0 && sameRules(rulesBefore, rules)) return;
        const version = (stored?.version ?? 0) + 1;
        await tx
          .insert(routingOrders)
          .values({
            merchantId: scope.merchantId,
            service: input.service,
            mode: input.mode,
            connectionIds: after,
            rules,
            version,
            updatedBy: scope.actor.label,
          })
          .onConflictDoUpdate({
            target: [routingOrders.merchantId, routingOrders.service, routingOrders.mode],
            set: { connectionIds: after, rules, version, updatedBy: scope.actor.label, updatedAt: new Date() },
          });
        await tx.insert(routingVersions).values({
          merchantId: scope.merchantId,
          service: input.service,
          mode: input.mode,
          version,
          connectionIds: after,
          rules,
          savedBy: scope.actor.label,
          restoredFrom: options.restoredFrom ?? null,
        });
        written = version;
        const labels = new Map(offering.map((row) => [row.id, row.label]));
        const order = after.map((id) => labels.get(id) ?? id).join(", ");
        const ruleCount = rules.length ? `; ${rules.length} rule${rules.length === 1 ? "" : "s"} before it` : "";
        await recordAudit(tx, {
          merchantId: scope.merchantId,
          actor: scope.actor,
          action: options.restoredFrom === undefined ? "routing.saved" : "routing.rolled_back",
          target: { type: "routing", id: `${input.service}:${input.mode}` },
          summary:
            options.restoredFrom === undefined
              ? `${input.service} (${input.mode}), version ${version}: ${order}${ruleCount}`
              : `${input.service} (${input.mode}): rolled back to version ${options.restoredFrom} as version ${version}: ${order}${ruleCount}`,
          changes: [
            ...changes.map((change) => `${labels.get(change.id) ?? change.id}: position ${change.from ?? "none"} → ${change.to ?? "none"}`),
            ...(sameRules(rulesBefore, rules) ? [] : [`rules changed (${rulesBefore.length} → ${rules.length})`]),
          ],
        });
      });
    // Two first saves of one list at once both find no row to lock and both take version 1: the
    // second's version collides (primary key) and rolls back; it saves again over the first's row.
    try {
      await save();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await save();
    }
  } finally {
    forgetRoutes(scope.merchantId);
  }
  const order = await getRoutingOrder(db, scope.merchantId, input.service, input.mode);
  if (!order) return fail([problem("not_found", `No connection of yours offers ${input.service} in ${input.mode} mode`, ["service"])]);
  return ok({ order, written });
}
