import type { SchemaRow } from "@/lib/api/openapi/reference";

const LONG_ENUM = 12;

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

function enumHtml(values: string[]): string {
  // One text node, not one element per value: a country list is 250 of them, several times over.
  const list = `<code class="font-mono wrap-anywhere">${escapeHtml(values.join(", "))}</code>`;
  if (values.length <= LONG_ENUM) return `<p class="mt-1 text-xs text-slate-700">One of: ${list}</p>`;
  return `<details class="mt-1 text-xs text-slate-700"><summary class="cursor-pointer text-brand-700 underline">One of ${values.length} values</summary><p class="mt-1">${list}</p></details>`;
}

function rowHtml(row: SchemaRow): string {
  const required = row.required ? ' <span class="ml-1 badge bg-amber-100 font-sans text-amber-900">required</span>' : "";
  const description = [
    row.description ? escapeHtml(row.description) : "",
    row.enumValues ? enumHtml(row.enumValues) : "",
    row.constraints.length > 0 ? `<p class="mt-1 text-xs text-slate-600 wrap-anywhere">${escapeHtml(row.constraints.join(" · "))}</p>` : "",
  ].join("");
  return (
    `<tr class="border-b border-slate-100 align-top">` +
    `<th scope="row" class="py-2 pr-3 font-mono font-normal break-words text-slate-900" style="padding-left:${row.depth * 1.25}rem">${escapeHtml(row.name)}${required}</th>` +
    `<td class="py-2 pr-3 font-mono text-xs break-words text-slate-700">${escapeHtml(row.type)}</td>` +
    `<td class="py-2 text-slate-700">${description}</td></tr>`
  );
}

/**
 * A schema's members as a table: nesting shown by indentation, required marked, enums and limits
 * listed. The rows are static HTML: the reference holds about a thousand of them, and as React
 * elements every one would be hydrated in the browser for nothing (they never change).
 */
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
        <tbody dangerouslySetInnerHTML={{ __html: rows.map(rowHtml).join("") }} />
      </table>
    </div>
  );
}
