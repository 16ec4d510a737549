import type { Metadata } from "next";
import { Link } from "@/components/link";
import { ConnectionTable } from "@/components/connections/connection-table";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { timeZoneInForce } from "@/lib/time-zones";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { listConnections, type ConnectionFilters } from "@/lib/connections/queries";
import { getDb } from "@/lib/db/client";
import { PROVIDERS } from "@/lib/providers";

export const metadata: Metadata = { title: "Connections" };

type Search = { provider?: string; state?: string };

/** The mode is the dashboard's Test/Live view, not a filter of this page. */
function filtersOf(search: Search, mode: ConnectionFilters["mode"]): ConnectionFilters {
  return {
    provider: PROVIDERS.some((p) => p.slug === search.provider) ? search.provider : undefined,
    mode,
    state: search.state === "enabled" || search.state === "disabled" ? search.state : undefined,
  };
}

export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requirePageViewer("connections.write");
  const filters = filtersOf(await searchParams, await getViewMode());
  const connections = await listConnections(await getDb(), viewer.merchant.id, filters);
  const select = "input w-auto";
  return (
    <>
      <PageHeader
        title="Connections"
        description={`Every ${filters.mode} provider connection of your merchant account; switch Test mode above for the ${filters.mode === "test" ? "live" : "test"} ones.`}
        actions={
          <Link href="/providers" className="btn-primary">
            New connection
          </Link>
        }
      />
      <form method="get" className="card mb-6 flex flex-wrap items-end gap-4" aria-label="Filter connections">
        <div>
          <label htmlFor="filter-provider" className="label">
            Provider
          </label>
          <select id="filter-provider" name="provider" defaultValue={filters.provider ?? ""} className={select}>
            <option value="">All</option>
            {PROVIDERS.map((p) => (
              <option key={p.slug} value={p.slug}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-state" className="label">
            State
          </label>
          <select id="filter-state" name="state" defaultValue={filters.state ?? ""} className={select}>
            <option value="">All</option>
            <option value="enabled">Enabled</option>
            <option value="disabled">Disabled</option>
          </select>
        </div>
        <button type="submit" className="btn-secondary">
          Apply
        </button>
        <Link href="/connections" className="text-sm text-brand-700 underline">
          Clear
        </Link>
      </form>
      <section className="card" aria-label="Connections">
        <ConnectionTable connections={connections} timeZone={timeZoneInForce(viewer)} />
      </section>
    </>
  );
}
