import type { Metadata } from "next";
import { Link } from "@/components/link";
import { OverviewSections, PeriodForm } from "@/components/home/overview";
import { SetupChecklist } from "@/components/home/setup-checklist";
import { StatusCounts } from "@/components/home/status-counts";
import { InvoiceTable } from "@/components/invoices/invoice-table";
import { PageHeader } from "@/components/shell/page-header";
import { getOverview, readPeriod } from "@/lib/analytics/overview";
import { blockedSummary } from "@/lib/risk/store";
import { requirePageViewer } from "@/lib/auth/viewer";
import { timeZoneInForce } from "@/lib/time-zones";
import { getHomeSummary, SETUP_STEPS } from "@/lib/dashboard/home";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { can } from "@/lib/identity/permissions";
import { formatMoney } from "@/lib/money";

export const metadata: Metadata = { title: "Home" };

/**
 * Where members land after signing in. Until setup is done: the setup checklist first, then the
 * overview; once done, the overview of the view's mode for the chosen period (read from the
 * rollups, lib/analytics/overview.ts), with the checklist still one click away. Then the counts
 * per status and the most recent invoices.
 */
export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer();
  const timeZone = timeZoneInForce(viewer);
  const mode = await getViewMode();
  const db = await getDb();
  const read = readPeriod(await searchParams, new Date(), timeZone);
  const [{ checklist, counts, recent }, overview, blocked] = await Promise.all([
    getHomeSummary(db, viewer.merchant.id, mode),
    getOverview(db, viewer.merchant.id, mode, read.period),
    blockedSummary(db, viewer.merchant.id, mode, read.period.from, read.period.to),
  ]);
  const setupDone = SETUP_STEPS.every((step) => checklist[step]);
  const modeName = mode === "test" ? "test" : "live";
  const overviewBlock = (
    <section className="mt-6" aria-labelledby="overview-heading">
      <h2 id="overview-heading" className="mb-3 text-lg font-semibold">
        Overview
      </h2>
      <div className="card mb-6">
        <PeriodForm read={read} mode={mode} />
      </div>
      <OverviewSections overview={overview} period={read.period} linkConnections={can(viewer.user.role, "connections.write")} />
      <p className="card mt-6 text-sm text-slate-800" data-testid="overview-blocked">
        {blocked.count === 0
          ? "No Pay was blocked by risk rules in this period. "
          : `${blocked.count} Pay${blocked.count === 1 ? " was" : "s were"} blocked by risk rules in this period, worth ${blocked.amounts.map((row) => formatMoney(row.amount, row.currency)).join(", ")}. `}
        <Link href="/risk">See Risk</Link>
      </p>
    </section>
  );
  return (
    <>
      <PageHeader
        title="Home"
        description={`${viewer.merchant.name}: how your ${modeName} payments do across providers${setupDone ? "" : ", and how far the setup is"}.`}
      />
      {setupDone ? (
        <>
          {overviewBlock}
          <details className="card mt-6" data-testid="setup-done">
            <summary className="cursor-pointer text-base font-semibold">Setup checklist (done)</summary>
            <div className="mt-3">
              <SetupChecklist checklist={checklist} role={viewer.user.role} mode={mode} />
            </div>
          </details>
          <div className="mt-6">
            <StatusCounts counts={counts} mode={mode} />
          </div>
        </>
      ) : (
        <>
          <div className="grid items-start gap-6 xl:grid-cols-2">
            <SetupChecklist checklist={checklist} role={viewer.user.role} mode={mode} />
            <StatusCounts counts={counts} mode={mode} />
          </div>
          {overviewBlock}
        </>
      )}
      <section className="card mt-6" aria-labelledby="recent-heading">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="recent-heading" className="text-base font-semibold">
            Recent {modeName} invoices
          </h2>
          <Link href="/invoices" className="text-sm font-medium text-brand-700 underline underline-offset-4">
            Open the invoice list
          </Link>
        </div>
        {recent.length === 0 ? <p className="text-sm text-slate-600">No {modeName} invoices yet.</p> : <InvoiceTable invoices={recent} timeZone={timeZone} />}
      </section>
    </>
  );
}
