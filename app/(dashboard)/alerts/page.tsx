import type { Metadata } from "next";
import { AlertRuleForm } from "@/components/alerts/alert-rule-form";
import { Link } from "@/components/link";
import { PageHeader } from "@/components/shell/page-header";
import type { AlertRow } from "@/lib/alerts/deliver";
import { listOpenAlerts, listResolvedAlerts } from "@/lib/alerts/read";
import { ALERT_RULES, figureWords, type AlertRuleSetting } from "@/lib/alerts/rules";
import { readAlertRules } from "@/lib/alerts/settings";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { can } from "@/lib/identity/permissions";
import { timeZoneInForce } from "@/lib/time-zones";

export const metadata: Metadata = { title: "Alerts" };

function AlertList({ rows, timeZone, label }: { rows: AlertRow[]; timeZone: string; label: string }) {
  return (
    <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white" aria-label={label}>
      {rows.map((row) => (
        <li key={row.id} id={row.id} className="space-y-1 px-4 py-3 text-sm" data-testid="alert-row" data-state={row.resolvedAt ? "resolved" : "open"}>
          <p className="flex flex-wrap items-center gap-2">
            {row.resolvedAt ? (
              <span className="badge bg-emerald-100 text-emerald-900">Resolved</span>
            ) : (
              <span className="badge bg-red-100 text-red-900">Open</span>
            )}
            <span className="font-medium wrap-anywhere text-slate-900">
              {row.link ? (
                <Link href={row.link} className="text-brand-700 underline">
                  {row.title}
                </Link>
              ) : (
                row.title
              )}
            </span>
          </p>
          <p className="text-slate-700 wrap-anywhere">{row.detail}</p>
          <p className="text-xs text-slate-600">
            {ALERT_RULES[row.rule].label} · opened {formatDateTime(row.openedAt, timeZone)}
            {row.resolvedAt ? ` · resolved ${formatDateTime(row.resolvedAt, timeZone)}` : null}
          </p>
          {row.resolvedDetail ? <p className="text-xs text-emerald-900">{row.resolvedDetail}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/** A rule as a member who may not change it reads it. */
function RuleSummary({ setting }: { setting: AlertRuleSetting }) {
  const spec = ALERT_RULES[setting.rule];
  const figures = [
    spec.threshold && setting.threshold !== null ? `${spec.threshold.label}: ${figureWords(spec.threshold, setting.threshold)}` : null,
    spec.window && setting.windowMinutes !== null ? `${spec.window.label}: ${figureWords(spec.window, setting.windowMinutes)}` : null,
  ].filter(Boolean);
  return (
    <li className="space-y-1 py-3 text-sm">
      <p className="font-medium text-slate-900">
        {spec.label}: {setting.enabled ? "on" : "off"}
      </p>
      <p className="text-slate-700">{spec.watches}</p>
      {figures.length ? <p className="text-slate-700">{figures.join(" · ")}</p> : null}
    </li>
  );
}

/** The view's alerts: the open ones, then the resolved ones newest first in pages; then the rules (owners change them). */
export default async function AlertsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer("alerts.read");
  const timeZone = timeZoneInForce(viewer);
  const mode = await getViewMode();
  const after = (await searchParams).after;
  const db = await getDb();
  const [open, history, rules] = await Promise.all([
    listOpenAlerts(db, viewer.merchant.id, mode),
    listResolvedAlerts(db, viewer.merchant.id, mode, typeof after === "string" ? after : undefined),
    readAlertRules(db, viewer.merchant.id),
  ]);
  const mayEdit = can(viewer.user.role, "alerts.manage");
  return (
    <>
      <PageHeader
        title="Alerts"
        description={`What went wrong with ${mode} payments and your integration, checked every minute. Owners are e-mailed when an alert fires and when it resolves, and your webhook endpoints may take alert.triggered and alert.resolved. Times in ${timeZone}.`}
      />
      <section aria-labelledby="open-alerts" className="mb-8">
        <h2 id="open-alerts" className="mb-3 text-base font-semibold">
          Open
        </h2>
        {open.length ? (
          <AlertList rows={open} timeZone={timeZone} label="Open alerts" />
        ) : (
          <p className="text-sm text-slate-600" data-testid="no-open-alerts">
            No {mode} alert is open.
          </p>
        )}
      </section>
      <section aria-labelledby="alert-history" className="mb-8">
        <h2 id="alert-history" className="mb-3 text-base font-semibold">
          History, newest first
        </h2>
        {history.rows.length ? (
          <AlertList rows={history.rows} timeZone={timeZone} label="Resolved alerts" />
        ) : (
          <p className="text-sm text-slate-600">No {mode} alert has resolved yet.</p>
        )}
        {history.next || typeof after === "string" ? (
          <nav aria-label="Pages" className="mt-4 flex gap-3">
            {typeof after === "string" ? (
              <Link href="/alerts" className="btn-secondary">
                Newest
              </Link>
            ) : null}
            {history.next ? (
              <Link href={`/alerts?after=${encodeURIComponent(history.next)}`} className="btn-secondary">
                Older
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
      <section aria-labelledby="alert-rules">
        <h2 id="alert-rules" className="mb-1 text-base font-semibold">
          Rules
        </h2>
        <p className="mb-3 text-sm text-slate-600">
          {mayEdit ? "Each rule applies to test and live alike; changes are recorded in the audit log." : "Only an owner can change the rules."}
        </p>
        {mayEdit ? (
          <div className="space-y-4">
            {rules.map((setting) => (
              <div key={setting.rule} className="card">
                <AlertRuleForm setting={setting} />
              </div>
            ))}
          </div>
        ) : (
          <ul className="card divide-y divide-slate-100" aria-label="Alert rules">
            {rules.map((setting) => (
              <RuleSummary key={setting.rule} setting={setting} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
