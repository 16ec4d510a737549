import type { Metadata } from "next";
import { Link } from "@/components/link";
import { PageHeader } from "@/components/shell/page-header";
import { AUDIT_ACTIONS, AUDIT_GROUP_KEYS, AUDIT_GROUPS, auditGroupOf, describeAuditAction } from "@/lib/audit/actions";
import { readAuditFilter, type AuditFilter } from "@/lib/audit/filters";
import { listAuditActors, listAuditLog, type AuditEntry } from "@/lib/audit/read";
import { requirePageViewer } from "@/lib/auth/viewer";
import { allows, type Permission, type Role } from "@/lib/identity/permissions";
import { getDb } from "@/lib/db/client";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "Audit log" };

/** Where an entry's target is seen in the dashboard, if the viewer's role opens that page (no link leads to /forbidden). */
function targetLink(entry: AuditEntry, role: Role): { href: string; label: string; needs: Permission } | undefined {
  const link = targetPage(entry);
  return link && allows(role, link.needs) ? link : undefined;
}

function targetPage(entry: AuditEntry): { href: string; label: string; needs: Permission } | undefined {
  switch (entry.targetType) {
    case "connection":
      return { href: `/connections/${entry.targetId}`, label: "Connection", needs: "connections.write" };
    case "invoice":
      return { href: `/invoices/${entry.targetId}`, label: "Invoice", needs: "invoices.read" };
    case "routing":
      return { href: "/routing", label: "Routing", needs: "routing.read" };
    case "api_key":
      return { href: "/api-keys", label: "API keys", needs: "keys.manage" };
    case "user":
    case "invite":
      return { href: "/team", label: "Team", needs: "team.manage" };
    case "settings":
    case "webhook":
      return { href: "/settings", label: "Settings", needs: "invoices.read" };
    default:
      return undefined;
  }
}

function filterQuery(filter: AuditFilter, page?: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, page: page && page > 1 ? page : undefined })) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  return params.toString();
}

function pageHref(filter: AuditFilter, page: number): string {
  const query = filterQuery(filter, page);
  return query ? `/audit-log?${query}` : "/audit-log";
}

/** The action filter's choices, under their group's name. */
const ACTIONS_BY_GROUP = AUDIT_GROUP_KEYS.map((group) => ({
  group,
  actions: (Object.keys(AUDIT_ACTIONS) as (keyof typeof AUDIT_ACTIONS)[]).filter((action) => auditGroupOf(action) === group),
}));

const ACTOR_TYPES: Record<string, string> = { user: "Person", api_key: "API key", system: "System" };

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer("audit.read");
  const zone = timeZoneInForce(viewer);
  const { filter, errors } = readAuditFilter(await searchParams);
  const db = await getDb();
  const [{ entries, hasMore, page }, actors] = await Promise.all([listAuditLog(db, viewer.merchant.id, filter, zone), listAuditActors(db, viewer.merchant.id)]);
  const filtered = Boolean(filter.group || filter.action || filter.actor || filter.from || filter.to);
  const exportQuery = filterQuery({ ...filter, page: undefined });
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what, and when: connections, routing, API keys, the team and who joined it, settings, webhooks, refunds, payouts, sign-ins, two-factor sign-in and exports. Newest first; secrets are never recorded."
        actions={
          <a href={`/api/dashboard/audit-log/export${exportQuery ? `?${exportQuery}` : ""}`} className="btn-secondary" download data-testid="audit-export">
            Export CSV{filtered ? " (filtered)" : ""}
          </a>
        }
      />
      <form
        method="get"
        action="/audit-log"
        className="card mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6 xl:items-end"
        aria-label="Filter the audit log"
      >
        <div>
          <label htmlFor="audit-group" className="label">
            Type
          </label>
          <select
            id="audit-group"
            name="group"
            defaultValue={filter.group ?? ""}
            className="input mt-1"
            aria-describedby="audit-group-error"
            aria-invalid={errors.group ? true : undefined}
          >
            <option value="">All types</option>
            {AUDIT_GROUP_KEYS.map((key) => (
              <option key={key} value={key}>
                {AUDIT_GROUPS[key]}
              </option>
            ))}
          </select>
          <p id="audit-group-error" className="field-error">
            {errors.group}
          </p>
        </div>
        <div>
          <label htmlFor="audit-action" className="label">
            Action
          </label>
          <select
            id="audit-action"
            name="action"
            defaultValue={filter.action ?? ""}
            className="input mt-1"
            aria-describedby="audit-action-error"
            aria-invalid={errors.action ? true : undefined}
          >
            <option value="">All actions</option>
            {ACTIONS_BY_GROUP.map(({ group, actions }) => (
              <optgroup key={group} label={AUDIT_GROUPS[group]}>
                {actions.map((action) => (
                  <option key={action} value={action}>
                    {describeAuditAction(action)}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <p id="audit-action-error" className="field-error">
            {errors.action}
          </p>
        </div>
        <div>
          <label htmlFor="audit-actor" className="label">
            Who
          </label>
          <select
            id="audit-actor"
            name="actor"
            defaultValue={filter.actor ?? ""}
            className="input mt-1"
            aria-describedby="audit-actor-error"
            aria-invalid={errors.actor ? true : undefined}
          >
            <option value="">Anyone</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.label}
              </option>
            ))}
          </select>
          <p id="audit-actor-error" className="field-error">
            {errors.actor}
          </p>
        </div>
        <div>
          <label htmlFor="audit-from" className="label">
            From (days in {zone})
          </label>
          <input
            id="audit-from"
            name="from"
            type="date"
            defaultValue={filter.from ?? ""}
            className="input mt-1"
            aria-describedby="audit-from-error"
            aria-invalid={errors.from ? true : undefined}
          />
          <p id="audit-from-error" className="field-error">
            {errors.from}
          </p>
        </div>
        <div>
          <label htmlFor="audit-to" className="label">
            To (days in {zone})
          </label>
          <input
            id="audit-to"
            name="to"
            type="date"
            defaultValue={filter.to ?? ""}
            className="input mt-1"
            aria-describedby="audit-to-error"
            aria-invalid={errors.to ? true : undefined}
          />
          <p id="audit-to-error" className="field-error">
            {errors.to}
          </p>
        </div>
        <div className="flex flex-wrap gap-3 pb-6">
          <button type="submit" className="btn-primary">
            Filter
          </button>
          {filtered ? (
            <Link href="/audit-log" className="btn-secondary">
              Clear
            </Link>
          ) : null}
        </div>
      </form>
      {entries.length === 0 ? (
        <p className="card text-sm text-slate-700" data-testid="audit-empty">
          {filtered || page > 1
            ? "No entries match this filter."
            : "Nothing recorded yet. Changes to connections, routing, keys, the team and settings, sign-ins and exports appear here."}
        </p>
      ) : (
        <div className="card p-0">
          <div
            className="hidden grid-cols-[11rem_14rem_1fr_8rem] gap-4 border-b border-slate-200 px-4 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase md:grid"
            aria-hidden="true"
          >
            <span>When</span>
            <span>Who</span>
            <span>What</span>
            <span>Where</span>
          </div>
          <ol className="divide-y divide-slate-100" data-testid="audit-log" aria-label="Audit log entries">
            {entries.map((entry) => {
              const target = targetLink(entry, viewer.user.role);
              return (
                <li key={entry.id} className="grid gap-1 px-4 py-3 text-sm md:grid-cols-[11rem_14rem_1fr_8rem] md:gap-4" data-action={entry.action}>
                  <span className="text-slate-600">
                    <time dateTime={entry.createdAt.toISOString()}>{formatDateTime(entry.createdAt, zone)}</time>
                  </span>
                  <span className="min-w-0 wrap-anywhere">
                    <span className="sr-only">{ACTOR_TYPES[entry.actorType] ?? entry.actorType}: </span>
                    {entry.actorLabel}
                  </span>
                  <span className="min-w-0 wrap-anywhere">
                    <span className="font-medium text-slate-900">{describeAuditAction(entry.action)}</span>
                    {entry.summary ? <span className="text-slate-700"> · {entry.summary}</span> : null}
                    {entry.changes.length ? <span className="block font-mono text-xs text-slate-600">{entry.changes.join(", ")}</span> : null}
                  </span>
                  <span>
                    {target ? (
                      <Link href={target.href} className="text-brand-700 underline">
                        {target.label}
                      </Link>
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ol>
        </div>
      )}
      <nav className="mt-4 flex flex-wrap gap-3" aria-label="Audit log pages">
        {page > 1 ? (
          <Link href={pageHref(filter, page - 1)} className="btn-secondary">
            Newer entries
          </Link>
        ) : null}
        {hasMore ? (
          <Link href={pageHref(filter, page + 1)} className="btn-secondary">
            Older entries
          </Link>
        ) : null}
      </nav>
    </>
  );
}
