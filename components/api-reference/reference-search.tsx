/**
 * The reference's search box: a plain GET form to the index (/docs/api?q=…), which lists the
 * operations of every group that match, each linked to its place on its group's page. It needs no
 * JavaScript, so it ships none; the same box sits on every page of the reference.
 */
export function ReferenceSearch({ initial, describedBy }: { initial: string; describedBy?: string }) {
  return (
    <form method="get" action="/docs/api" role="search" aria-label="API reference" className="flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1">
        <label htmlFor="api-search" className="label">
          Search operations
        </label>
        <input
          id="api-search"
          name="q"
          type="search"
          className="input mt-1"
          defaultValue={initial}
          maxLength={200}
          placeholder="refund, POST, /api/routing, createConnection…"
          aria-describedby={describedBy}
        />
      </div>
      <button type="submit" className="btn-secondary">
        Search
      </button>
    </form>
  );
}
