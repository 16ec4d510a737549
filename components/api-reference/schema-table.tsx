import type { SchemaRow } from "@/lib/api/openapi/reference";

const LONG_ENUM = 12;

function EnumValues({ values }: { values: string[] }) {
  const list = values.map((value, index) => (
    <span key={value}>
      {index > 0 ? ", " : null}
      <code className="font-mono">{value}</code>
    </span>
  ));
  if (values.length <= LONG_ENUM) return <p className="mt-1 text-xs text-slate-700">One of: {list}</p>;
  return (
    <details className="mt-1 text-xs text-slate-700">
      <summary className="cursor-pointer text-brand-700 underline">One of {values.length} values</summary>
      <p className="mt-1 wrap-anywhere">{list}</p>
    </details>
  );
}

/** A schema's members as a table: nesting shown by indentation, required marked, enums and limits listed. */
export function SchemaTable({ rows, caption }: { rows: SchemaRow[]; caption: string }) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">No members.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
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
              <th scope="row" className="py-2 pr-3 font-normal" style={{ paddingLeft: `${row.depth * 1.25}rem` }}>
                <code className="font-mono text-slate-900 wrap-anywhere">{row.name}</code>
                {row.required ? <span className="ml-1 badge bg-amber-100 text-amber-900">required</span> : null}
              </th>
              <td className="py-2 pr-3 font-mono text-xs text-slate-700 wrap-anywhere">{row.type}</td>
              <td className="py-2 text-slate-700">
                {row.description ? <p>{row.description}</p> : null}
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
