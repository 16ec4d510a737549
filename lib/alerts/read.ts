import "server-only";
import { and, count, desc, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { ALERT_ID } from "@/lib/ids/patterns";
import { alerts } from "@/lib/db/schema";
import type { Mode } from "@/lib/providers";
import type { AlertRow } from "./deliver";

/**
 * What the dashboard reads of alerts, within the merchant and the view's mode (alerts about
 * something without a mode, such as a webhook endpoint, show in both views).
 */
const inView = (merchantId: string, mode: Mode) => and(eq(alerts.merchantId, merchantId), or(eq(alerts.mode, mode), isNull(alerts.mode)));

/** The bell's count: open alerts of the view (the open-alert index). */
export async function countOpenAlerts(db: Db, merchantId: string, mode: Mode): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(alerts)
    .where(and(inView(merchantId, mode), isNull(alerts.resolvedAt)));
  return row?.n ?? 0;
}

/** The open alerts, newest first (a merchant has few: one per rule and subject at most). */
export function listOpenAlerts(db: Db, merchantId: string, mode: Mode): Promise<AlertRow[]> {
  return db
    .select()
    .from(alerts)
    .where(and(inView(merchantId, mode), isNull(alerts.resolvedAt)))
    .orderBy(desc(alerts.openedAt), desc(alerts.id))
    .limit(200);
}

const HISTORY_PAGE = 50;

/** Resolved alerts, newest opened first, a page at a time after the alert `after` (keyset on opened_at, id). */
export async function listResolvedAlerts(db: Db, merchantId: string, mode: Mode, after?: string): Promise<{ rows: AlertRow[]; next: string | null }> {
  // A position that is no alert id of any shape is no position: the first page.
  const [cursor] =
    after && ALERT_ID.test(after)
      ? await db
          .select({ openedAt: alerts.openedAt, id: alerts.id })
          .from(alerts)
          .where(and(eq(alerts.merchantId, merchantId), eq(alerts.id, after)))
      : [];
  const rows = await db
    .select()
    .from(alerts)
    .where(
      and(
        inView(merchantId, mode),
        isNotNull(alerts.resolvedAt),
        cursor ? or(lt(alerts.openedAt, cursor.openedAt), and(eq(alerts.openedAt, cursor.openedAt), lt(alerts.id, cursor.id))) : undefined,
      ),
    )
    .orderBy(desc(alerts.openedAt), desc(alerts.id))
    .limit(HISTORY_PAGE + 1);
  const more = rows.length > HISTORY_PAGE;
  return { rows: rows.slice(0, HISTORY_PAGE), next: more ? rows[HISTORY_PAGE - 1]!.id : null };
}
