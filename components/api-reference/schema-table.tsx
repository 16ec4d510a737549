import type { SchemaRow } from "@/lib/api/openapi/reference";

const LONG_ENUM = 12;

function EnumValues({ values }: { values: string[] }) {
  // One text node, not one element per value: a country list is 250 of them, several times over.
  const list = <code className="font-mono wrap-anywhere">{values.join(", ")}</code>;
  if (values.length <= LONG_ENUM) return <p className="mt-1 text-xs text-slate-700">One of: {list}</p>;
  return (
    <details className="mt-1 text-xs text-slate-700">
      <summary className="cursor-pointer text-brand-700 underline">One of {values.length} values</summary>
      <p className="mt-1">{list}</p>
    </details>
  );
}

/** A schema's members as a table: nesting shown by indentation, required marked, enums and limits listed. */
export function SchemaTable({ rows, caption }: { rows: SchemaRow[]; caption: string }) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">No members.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[40rem] table-fixed border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        {/* Fixed shares: left to itself the description column takes the width and names break letter by letter. */}
        <colgroup>
          <col className="w-[32%]" />
          <col className="w-[18%]" />
          <col />
        </colgroup>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-600">
            <th scope="col" className="py-2 pr-3 font-medium">
              Field
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Type
            </th>
            <th scope="col" className="py-2 font-medium">
              Description
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-b border-slate-100 align-top">
              <th scope="row" className="py-2 pr-3 font-mono font-normal break-words text-slate-900" style={{ paddingLeft: `${row.depth * 1.25}rem` }}>
                {row.name}
                {row.required ? <span className="ml-1 badge bg-amber-100 font-sans text-amber-900">required</span> : null}
              </th>
              <td className="py-2 pr-3 font-mono text-xs break-words text-slate-700">{row.type}</td>
              <td className="py-2 text-slate-700">
                {row.description}
                {row.enumValues ? <EnumValues values={row.enumValues} /> : null}
                {row.constraints.length > 0 ? <p className="mt-1 text-xs text-slate-600 wrap-anywhere">{row.constraints.join(" · ")}</p> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
