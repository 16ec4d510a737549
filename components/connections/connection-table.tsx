import Link from "next/link";
import type { ConnectionView } from "@/lib/connections/store";
import { formatDateTime } from "@/lib/format";
import { getKind, getProvider, serviceLabelOf } from "@/lib/providers";
import { ModeBadge, StateBadge } from "./badges";

export function ConnectionTable({ connections, showProvider = true }: { connections: ConnectionView[]; showProvider?: boolean }) {
  if (connections.length === 0) return <p className="text-sm text-slate-600">No connections yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-slate-600">
          <tr>
            <th className="py-2 pr-4 font-medium">Label</th>
            {showProvider ? <th className="py-2 pr-4 font-medium">Provider</th> : null}
            <th className="py-2 pr-4 font-medium">Kind</th>
            <th className="py-2 pr-4 font-medium">Mode</th>
            <th className="py-2 pr-4 font-medium">State</th>
            <th className="py-2 pr-4 font-medium">Services</th>
            <th className="py-2 font-medium">Updated</th>
          </tr>
        </thead>
        <tbody>
          {connections.map((c) => (
            <tr key={c.id} className="border-t border-slate-100">
              <td className="py-2 pr-4">
                <Link className="font-medium text-brand-700 underline" href={`/connections/${c.id}`}>
                  {c.label}
                </Link>
              </td>
              {showProvider ? <td className="py-2 pr-4">{getProvider(c.provider)?.name ?? c.provider}</td> : null}
              <td className="py-2 pr-4">{getKind(c.provider, c.kind)?.label ?? c.kind}</td>
              <td className="py-2 pr-4"><ModeBadge mode={c.mode} /></td>
              <td className="py-2 pr-4"><StateBadge enabled={c.enabled} /></td>
              <td className="py-2 pr-4">
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
              <td className="py-2">{formatDateTime(c.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
