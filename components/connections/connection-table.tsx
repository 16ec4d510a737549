import { Link } from "@/components/link";
import type { ConnectionView } from "@/lib/connections/store";
import { formatDateTime } from "@/lib/format";
import { getKind, getProvider, serviceLabelOf } from "@/lib/providers";
import { HealthBadge, ModeBadge, StateBadge } from "./badges";

export function ConnectionTable({ connections, showProvider = true, timeZone }: { connections: ConnectionView[]; showProvider?: boolean; timeZone: string }) {
  if (connections.length === 0) return <p className="text-sm text-slate-600">No connections yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-slate-600">
          <tr>
            {/* Below md: label (the link to the connection), provider and state; the rest from md up. */}
            <th className="py-2 pr-2 font-medium md:pr-4">Label</th>
            {showProvider ? <th className="py-2 pr-2 font-medium md:pr-4">Provider</th> : null}
            <th className={`${showProvider ? "hidden md:table-cell" : ""} py-2 pr-2 font-medium md:pr-4`}>Kind</th>
            <th className="hidden py-2 pr-4 font-medium md:table-cell">Mode</th>
            <th className="py-2 pr-2 font-medium md:pr-4">State</th>
            <th className="py-2 pr-2 font-medium md:pr-4">Health</th>
            <th className="hidden py-2 pr-4 font-medium md:table-cell">Services</th>
            <th className="hidden py-2 font-medium md:table-cell">Updated</th>
          </tr>
        </thead>
        <tbody>
          {connections.map((c) => (
            <tr key={c.id} className="border-t border-slate-100" data-testid="connection-row">
              <td className="py-2 pr-2 break-words md:pr-4">
                <Link className="font-medium text-brand-700 underline" href={`/connections/${c.id}`}>
                  {c.label}
                </Link>
              </td>
              {showProvider ? <td className="py-2 pr-2 md:pr-4">{getProvider(c.provider)?.name ?? c.provider}</td> : null}
              <td className={`${showProvider ? "hidden md:table-cell" : ""} py-2 pr-2 md:pr-4`}>{getKind(c.provider, c.kind)?.label ?? c.kind}</td>
              <td className="hidden py-2 pr-4 md:table-cell">
                <ModeBadge mode={c.mode} />
              </td>
              <td className="py-2 pr-2 md:pr-4">
                <StateBadge enabled={c.enabled} />
              </td>
              <td className="py-2 pr-2 md:pr-4">
                <HealthBadge health={c.health} testId="connection-health" />
              </td>
              <td className="hidden py-2 pr-4 md:table-cell">
                {c.services.length === 0 ? (
                  "None"
                ) : (
                  <ul>
                    {c.services.map((code) => (
                      <li key={code} title={code}>
                        {serviceLabelOf(code)}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="hidden py-2 md:table-cell">{formatDateTime(c.updatedAt, timeZone)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
