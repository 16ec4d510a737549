import "server-only";
import { and, eq, type AnyColumn, gt, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db/client";
import { alertRules, alerts, apiKeys, connections, disputes, routingStats, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { DISPUTE_REASON_WORDS } from "@/lib/disputes/contract";
import { newId } from "@/lib/ids";
import { serviceLabelOf } from "@/lib/providers/services";
import { announceAlert, recordAlertEvent, type AlertRow } from "./deliver";
import { ALERT_RULES, ROLLED_KEY_QUIET_HOURS, SUCCESS_RATE_MIN_ATTEMPTS, type AlertRuleKind } from "./rules";

/**
 * Alert evaluation, run by every worker's sweep (never on the create or pay path): the conditions
 * that hold now, read from facts other modules already keep (connection health, routing_stats,
 * webhook_deliveries, disputes, API keys' last use), compared with the open alerts.
 * - a condition without an open alert fires one: INSERT … ON CONFLICT DO NOTHING against the
 *   unique index of open alerts per merchant, rule and subject, so of several instances
 *   evaluating at once exactly one inserts it, and only that one records `alert.triggered` and mails;
 * - an open alert whose condition no longer holds (or whose rule was turned off) resolves by a
 *   compare-and-set on `resolved_at`, so it resolves, and says so, once.
 * Nothing depends on timing: a second evaluation of the same facts changes nothing.
 */

type AlertCondition = {
  merchantId: string;
  rule: AlertRuleKind;
  subject: string;
  mode: "test" | "live" | null;
  title: string;
  detail: string;
  link: string | null;
};

/** The rule's row of the merchant in `merchantColumn` (left join: no row, the defaults); `enabled`: the rule is on. */
function ruleJoin(rule: AlertRuleKind, merchantColumn: AnyColumn) {
  return and(eq(alertRules.merchantId, merchantColumn), eq(alertRules.rule, rule));
}
const enabled = or(isNull(alertRules.enabled), eq(alertRules.enabled, true));

const dateWords = (at: Date) => at.toISOString().replace("T", " ").slice(0, 16) + " UTC";
const HEALTH_WORDS = { degraded: "degraded", failing: "failing" } as const;

async function connectionHealthConditions(db: Db): Promise<AlertCondition[]> {
  const rows = await db
    .select({
      id: connections.id,
      merchantId: connections.merchantId,
      label: connections.label,
      mode: connections.mode,
      health: connections.health,
      lastErrorMessage: connections.lastErrorMessage,
    })
    .from(connections)
    .leftJoin(alertRules, ruleJoin("connection_health", connections.merchantId))
    .where(and(enabled, isNull(connections.deletedAt), eq(connections.enabled, true), inArray(connections.health, ["degraded", "failing"])));
  return rows.map((row) => ({
    merchantId: row.merchantId,
    rule: "connection_health",
    subject: row.id,
    mode: row.mode,
    title: `Connection ${row.label} is ${HEALTH_WORDS[row.health as keyof typeof HEALTH_WORDS]}`,
    detail: `Its recent attempts failed for technical reasons${row.lastErrorMessage ? ` (last error: ${row.lastErrorMessage.slice(0, 200)})` : ""}.`,
    link: `/connections/${row.id}`,
  }));
}

async function successRateConditions(db: Db, now: Date): Promise<AlertCondition[]> {
  const spec = ALERT_RULES.success_rate;
  const windowMinutes = sql<number>`coalesce(${alertRules.windowMinutes}, ${spec.window!.defaultValue})`;
  // routing_stats buckets are 5 minutes long: a bucket counts when any of it is within the window.
  const rows = await db
    .select({
      merchantId: routingStats.merchantId,
      service: routingStats.service,
      mode: connections.mode,
      attempts: sql<number>`sum(${routingStats.attempts})::int`,
      successes: sql<number>`sum(${routingStats.successes})::int`,
      threshold: alertRules.threshold,
      windowMinutes: alertRules.windowMinutes,
    })
    .from(routingStats)
    .innerJoin(connections, eq(connections.id, routingStats.connectionId))
    .leftJoin(alertRules, ruleJoin("success_rate", routingStats.merchantId))
    .where(and(enabled, sql`${routingStats.bucket} > ${now.toISOString()}::timestamptz - make_interval(mins => ${windowMinutes} + 5)`))
    .groupBy(routingStats.merchantId, routingStats.service, connections.mode, alertRules.threshold, alertRules.windowMinutes);
  return rows.flatMap((row): AlertCondition[] => {
    const threshold = row.threshold ?? spec.threshold!.defaultValue;
    const window = row.windowMinutes ?? spec.window!.defaultValue;
    if (row.attempts < SUCCESS_RATE_MIN_ATTEMPTS || row.successes * 100 >= threshold * row.attempts) return [];
    const rate = Math.floor((row.successes * 1000) / row.attempts) / 10;
    return [
      {
        merchantId: row.merchantId,
        rule: "success_rate",
        subject: `${row.mode}:${row.service}`,
        mode: row.mode,
        title: `${serviceLabelOf(row.service)}: success rate below ${threshold} %`,
        detail: `${row.successes} of ${row.attempts} attempts succeeded (${rate} %) in the last ${window} minutes, ${row.mode} mode.`,
        link: "/routing",
      },
    ];
  });
}

async function webhookFailureConditions(db: Db): Promise<AlertCondition[]> {
  const spec = ALERT_RULES.webhook_failures;
  const inARow = sql<number>`coalesce(${alertRules.threshold}, ${spec.threshold!.defaultValue})`;
  // One index probe per endpoint (webhook_deliveries_endpoint_idx): its latest tries, counted while they failed.
  const failed = sql<number>`(select count(*)::int from (select ${webhookDeliveries.succeeded} as ok from ${webhookDeliveries} where ${webhookDeliveries.endpointId} = ${webhookEndpoints.id} order by ${webhookDeliveries.at} desc limit ${inARow}) as latest where not latest.ok)`;
  const rows = await db
    .select({ id: webhookEndpoints.id, merchantId: webhookEndpoints.merchantId, url: webhookEndpoints.url, threshold: alertRules.threshold, failed })
    .from(webhookEndpoints)
    .leftJoin(alertRules, ruleJoin("webhook_failures", webhookEndpoints.merchantId))
    .where(and(enabled, eq(webhookEndpoints.enabled, true)));
  return rows.flatMap((row): AlertCondition[] => {
    const threshold = row.threshold ?? spec.threshold!.defaultValue;
    if (row.failed < threshold) return [];
    return [
      {
        merchantId: row.merchantId,
        rule: "webhook_failures",
        subject: row.id,
        mode: null,
        title: `Webhook endpoint ${row.url.slice(0, 200)} is failing`,
        detail: `${threshold === 1 ? "Its last delivery" : `Its last ${threshold} deliveries`} failed. Events wait and are retried; check the event log.`,
        link: "/webhooks",
      },
    ];
  });
}

async function disputeConditions(db: Db, rule: "dispute_opened" | "dispute_deadline", now: Date): Promise<AlertCondition[]> {
  const days = sql<number>`coalesce(${alertRules.threshold}, ${ALERT_RULES.dispute_deadline.threshold!.defaultValue})`;
  const rows = await db
    .select({
      id: disputes.id,
      merchantId: disputes.merchantId,
      testMode: disputes.testMode,
      amount: disputes.amount,
      currency: disputes.currency,
      reason: disputes.reason,
      evidenceDueBy: disputes.evidenceDueBy,
    })
    .from(disputes)
    .leftJoin(alertRules, ruleJoin(rule, disputes.merchantId))
    .where(
      and(
        enabled,
        eq(disputes.status, "needs_response"),
        isNull(disputes.submittedAt),
        isNull(disputes.acceptedAt),
        rule === "dispute_deadline" ? sql`${disputes.evidenceDueBy} <= ${now.toISOString()}::timestamptz + make_interval(days => ${days})` : undefined,
      ),
    );
  return rows.map((row) => ({
    merchantId: row.merchantId,
    rule,
    subject: row.id,
    mode: row.testMode ? "test" : "live",
    title:
      rule === "dispute_opened"
        ? `Dispute of ${row.amount} ${row.currency} opened`
        : `Dispute of ${row.amount} ${row.currency}: evidence due by ${dateWords(row.evidenceDueBy)}`,
    detail: `Reason: ${DISPUTE_REASON_WORDS[row.reason]}. Evidence due by ${dateWords(row.evidenceDueBy)}; unanswered, it is lost.`,
    link: `/disputes/${row.id}`,
  }));
}

async function rolledKeyConditions(db: Db, now: Date): Promise<AlertCondition[]> {
  const successor = alias(apiKeys, "successor");
  const quietSince = new Date(now.getTime() - ROLLED_KEY_QUIET_HOURS * 3_600_000);
  const rows = await db
    .select({
      id: apiKeys.id,
      merchantId: apiKeys.merchantId,
      name: apiKeys.name,
      mode: apiKeys.mode,
      lastUsedAt: apiKeys.lastUsedAt,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .innerJoin(successor, eq(successor.id, apiKeys.rolledTo))
    .leftJoin(alertRules, ruleJoin("api_key_after_roll", apiKeys.merchantId))
    .where(
      and(
        enabled,
        isNotNull(apiKeys.rolledTo),
        isNull(apiKeys.revokedAt),
        gt(apiKeys.expiresAt, now),
        // Used after the roll (the successor was made by it), and lately.
        sql`${apiKeys.lastUsedAt} > ${successor.createdAt}`,
        gt(apiKeys.lastUsedAt, quietSince),
      ),
    );
  return rows.map((row) => ({
    merchantId: row.merchantId,
    rule: "api_key_after_roll",
    subject: row.id,
    mode: row.mode,
    title: `API key ${row.name} used after it was rolled`,
    detail: `Last used ${dateWords(row.lastUsedAt!)}; it stops working at ${dateWords(row.expiresAt!)}. Move your integration to the new key.`,
    link: "/api-keys",
  }));
}

/** Every condition that holds now, across merchants, for the rules that are on. */
async function currentAlertConditions(db: Db, now = new Date()): Promise<AlertCondition[]> {
  const lists = await Promise.all([
    connectionHealthConditions(db),
    successRateConditions(db, now),
    webhookFailureConditions(db),
    disputeConditions(db, "dispute_opened", now),
    disputeConditions(db, "dispute_deadline", now),
    rolledKeyConditions(db, now),
  ]);
  return lists.flat();
}

/** Why an alert resolved, per rule; a rule turned off says that instead. */
const RESOLVED_WORDS: Readonly<Record<AlertRuleKind, string>> = {
  connection_health: "The connection is healthy again (or was disabled or deleted).",
  success_rate: `The success rate is back above the threshold (or fewer than ${SUCCESS_RATE_MIN_ATTEMPTS} attempts are left in the window).`,
  webhook_failures: "The endpoint took a delivery again (or was disabled or deleted).",
  dispute_opened: "The dispute was answered or closed.",
  dispute_deadline: "The dispute was answered or closed.",
  api_key_after_roll: `The rolled key stopped working or has not been used for ${ROLLED_KEY_QUIET_HOURS} hours.`,
};
const RULE_OFF_WORDS = "The rule was turned off.";

const keyOf = (alert: { merchantId: string; rule: string; subject: string }) => `${alert.merchantId}|${alert.rule}|${alert.subject}`;

/** Opens the condition's alert unless one is open; true when this call opened it (and announced it). */
async function fire(db: Db, condition: AlertCondition): Promise<boolean> {
  const opened = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(alerts)
      .values({ id: newId("alr"), ...condition })
      .onConflictDoNothing()
      .returning();
    if (!row) return undefined;
    return { row, event: await recordAlertEvent(tx, "alert.triggered", row) };
  });
  if (!opened) return false;
  await announceAlert(db, "alert.triggered", opened.row, opened.event);
  return true;
}

/** Resolves an open alert unless something resolved it first; true when this call did (and announced it). */
async function resolve(db: Db, alert: AlertRow, words: string): Promise<boolean> {
  const resolved = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(alerts)
      .set({ resolvedAt: sql`now()`, resolvedDetail: words })
      .where(and(eq(alerts.id, alert.id), isNull(alerts.resolvedAt)))
      .returning();
    if (!row) return undefined;
    return { row, event: await recordAlertEvent(tx, "alert.resolved", row) };
  });
  if (!resolved) return false;
  await announceAlert(db, "alert.resolved", resolved.row, resolved.event);
  return true;
}

/** One evaluation: fires what newly holds, resolves what cleared; returns how many alerts this call changed. */
export async function evaluateAlerts(db: Db, now = new Date()): Promise<number> {
  const conditions = await currentAlertConditions(db, now);
  const holding = new Set(conditions.map(keyOf));
  const open = await db.select().from(alerts).where(isNull(alerts.resolvedAt));
  const openKeys = new Set(open.map(keyOf));
  const off = new Set(
    (await db.select({ merchantId: alertRules.merchantId, rule: alertRules.rule }).from(alertRules).where(eq(alertRules.enabled, false))).map(
      (r) => `${r.merchantId}|${r.rule}`,
    ),
  );
  let changed = 0;
  for (const condition of conditions) if (!openKeys.has(keyOf(condition)) && (await fire(db, condition))) changed += 1;
  for (const alert of open) {
    if (holding.has(keyOf(alert))) continue;
    const words = off.has(`${alert.merchantId}|${alert.rule}`) ? RULE_OFF_WORDS : RESOLVED_WORDS[alert.rule];
    if (await resolve(db, alert, words)) changed += 1;
  }
  return changed;
}
