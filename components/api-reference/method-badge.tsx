/** White on these colours is at least 4.5:1. */
const COLOURS: Record<string, string> = {
  GET: "bg-[#0b5cad]",
  POST: "bg-[#146c43]",
  PUT: "bg-[#9a4d00]",
  PATCH: "bg-[#9a4d00]",
  DELETE: "bg-[#b42318]",
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span className={`inline-block min-w-16 rounded px-2 py-0.5 text-center font-mono text-xs font-semibold text-white ${COLOURS[method] ?? "bg-slate-700"}`}>
      {method}
    </span>
  );
}
