import type { Metadata } from "next";
import { Link } from "@/components/link";
import { BlocklistForm } from "@/components/risk/blocklist-form";
import { LimitsForm } from "@/components/risk/limits-form";
import { RemoveEntryButton } from "@/components/risk/remove-entry-button";
import { SimulatorForm } from "@/components/risk/simulator-form";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { can, canInMode } from "@/lib/identity/permissions";
import { formatMoney } from "@/lib/money";
import { BLOCKLIST_KIND_LABELS } from "@/lib/risk/blocklist";
import { describeRiskRule } from "@/lib/risk/settings";
import { blockedSummary, getRiskSettings, listBlocklist, recentBlockedAttempts } from "@/lib/risk/store";
import { timeZoneInForce } from "@/lib/time-zones";

export const metadata: Metadata = { title: "Risk" };

const DAY_MS = 24 * 60 * 60_000;

function dayBefore(now: Date): Date {
  return new Date(now.getTime() - DAY_MS);
}

/**
 * Risk: what stopped Pays in the view's mode (the last day's count and would-be amounts, the latest
 * refusals with their rule), the blocklist of the mode, the velocity limits (both modes), and the
 * simulator. A server page with small islands: the forms load their schema on first check.
 */
export default async function RiskPage() {
  const { user, merchant } = await requirePageViewer("invoices.read");
  const zone = timeZoneInForce({ user, merchant });
  const mode = await getViewMode();
  const db = await getDb();
  const [entries, settings, summary, recent] = await Promise.all([
    listBlocklist(db, merchant.id, mode),
    getRiskSettings(db, merchant.id),
    blockedSummary(db, merchant.id, mode, dayBefore(new Date())),
    recentBlockedAttempts(db, merchant.id, mode),
  ]);
  const mayBlock = canInMode(user.role, "risk.block", mode);
  const amounts = summary.amounts.map((row) => formatMoney(row.amount, row.currency)).join(", ");
  return (
    <>
      <PageHeader
        title="Risk"
        description={`Blocklists and velocity limits checked at every Pay before a provider is called (${mode} mode). A refused customer reads "This payment could not be completed; try again later."`}
      />
      <div className="space-y-6">
        <section aria-labelledby="risk-blocked" className="card">
          <h2 id="risk-blocked" className="text-base font-semibold">
            Blocked in the last 24 hours
          </h2>
          <p className="mt-1 text-sm text-slate-800" data-testid="risk-blocked-summary">
            {summary.count === 0 ? "No Pay was blocked." : `${summary.count} attempt${summary.count === 1 ? "" : "s"} blocked, worth ${amounts}.`}
          </p>
          {recent.length > 0 ? (
            <div className="mt-3 overflow-x-auto">
              <table className="w-full text-left text-sm" aria-label="Latest blocked attempts">
                <thead className="bg-slate-50 text-xs uppercase text-slate-600">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      When
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Rule
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Amount
                    </th>
                    <th scope="col" className="px-3 py-2 max-md:hidden">
                      Card
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {recent.map((row) => (
                    <tr key={row.id} className="border-t border-slate-100">
                      <td className="px-3 py-2">
                        <Link href={`/invoices/${row.invoiceId}`}>{formatDateTime(row.at, zone)}</Link>
                      </td>
                      <td className="px-3 py-2">{describeRiskRule(row.rule)}</td>
                      <td className="px-3 py-2 tabular-nums">{formatMoney(row.amount, row.currency)}</td>
                      <td className="px-3 py-2 max-md:hidden">{row.cardLabel ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </section>

        <section aria-labelledby="risk-blocklist" className="card space-y-3">
          <h2 id="risk-blocklist" className="text-base font-semibold">
            {`Blocklist (${mode})`}
          </h2>
          {entries.length === 0 ? (
            <p className="text-sm text-slate-700">Nothing is blocked in this mode.</p>
          ) : (
            <ul className="divide-y divide-slate-100" aria-label="Blocklist entries">
              {entries.map((entry) => (
                <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <span className="min-w-0 break-all">
                    <span className="font-medium">{BLOCKLIST_KIND_LABELS[entry.kind]}</span>
                    {`: ${entry.label}`}
                    {entry.note ? <span className="text-slate-600">{` — ${entry.note}`}</span> : null}
                  </span>
                  {mayBlock ? <RemoveEntryButton id={entry.id} mode={mode} label={`${BLOCKLIST_KIND_LABELS[entry.kind]} ${entry.label}`} /> : null}
                </li>
              ))}
            </ul>
          )}
          {mayBlock ? <BlocklistForm mode={mode} /> : <p className="text-sm text-slate-700">{`Your role may not change the ${mode} blocklist.`}</p>}
        </section>

        <section aria-labelledby="risk-limits" className="card space-y-3">
          <h2 id="risk-limits" className="text-base font-semibold">
            Velocity limits
          </h2>
          <p className="text-sm text-slate-700">
            Counted per card, client address, customer e-mail and invoice over sliding windows, in both modes. A decline counts, and so does a Pay still waiting
            for its answer; a success does not.
          </p>
          <LimitsForm settings={settings} readOnly={!can(user.role, "risk.settings")} />
        </section>

        <section aria-labelledby="risk-simulator" className="card space-y-3">
          <h2 id="risk-simulator" className="text-base font-semibold">
            Simulator
          </h2>
          <p className="text-sm text-slate-700">
            What the rules would do now with a new card of this BIN, from this address, for this e-mail. Nothing is counted.
          </p>
          <SimulatorForm mode={mode} />
        </section>
      </div>
    </>
  );
}
