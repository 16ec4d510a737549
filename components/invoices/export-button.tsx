"use client";

import { useRef, useState } from "react";
import type { DashboardInvoiceFilters } from "@/lib/invoices/read/filters";
import { invoiceSearch } from "./invoice-client";

type State =
  | { kind: "idle" }
  | { kind: "running"; rows: number; total: number }
  | { kind: "done"; rows: number }
  | { kind: "failed"; message: string }
  | { kind: "canceled" };

/** Rows so far: CSV lines end with CRLF, and the first line is the header. */
function countLineEnds(chunk: Uint8Array, previousEndedWithCr: boolean): number {
  let count = previousEndedWithCr && chunk[0] === 0x0a ? 1 : 0;
  for (let index = 0; index < chunk.length - 1; index += 1) if (chunk[index] === 0x0d && chunk[index + 1] === 0x0a) count += 1;
  return count;
}

function fileNameOf(response: Response): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
  return match?.[1] ?? "invoices.csv";
}

/**
 * Export CSV of the list as filtered (every page, in the current Test/Live view): the file is read
 * as the server streams it, rows counted against the total the server sends first
 * (X-Total-Count), so the bar shows real progress; Cancel stops the download and the server's reading.
 */
export function ExportButton({ filters }: { filters: DashboardInvoiceFilters }) {
  const [state, setState] = useState<State>({ kind: "idle" });
  const abort = useRef<AbortController | null>(null);

  async function run() {
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: "running", rows: 0, total: 0 });
    try {
      const response = await fetch(`/api/dashboard/invoices/export?${invoiceSearch(filters)}`, { signal: controller.signal, cache: "no-store" });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => undefined)) as { errors?: { detail?: string }[] } | undefined;
        throw new Error(body?.errors?.[0]?.detail ?? `The server answered ${response.status}`);
      }
      const total = Number(response.headers.get("x-total-count") ?? 0);
      const reader = response.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let lines = 0;
      let endedWithCr = false;
      let shown = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        lines += countLineEnds(value, endedWithCr);
        endedWithCr = value.at(-1) === 0x0d;
        // The header line is not a row; repaint at most every 1 % so a million rows stay cheap.
        const rows = Math.max(0, lines - 1);
        if (rows - shown >= Math.max(1, total / 100)) {
          shown = rows;
          setState({ kind: "running", rows, total });
        }
      }
      const rows = Math.max(0, lines - 1);
      const url = URL.createObjectURL(new Blob(chunks, { type: "text/csv" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = fileNameOf(response);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ kind: "done", rows });
    } catch (error) {
      if (controller.signal.aborted) setState({ kind: "canceled" });
      else setState({ kind: "failed", message: error instanceof Error ? error.message : "The export failed." });
    } finally {
      abort.current = null;
    }
  }

  const running = state.kind === "running";
  const percent = running && state.total > 0 ? Math.min(100, Math.round((100 * state.rows) / state.total)) : 0;
  return (
    <div className="flex flex-col items-start gap-1">
      {running ? (
        <button type="button" className="btn-secondary" onClick={() => abort.current?.abort()}>
          Cancel export
        </button>
      ) : (
        <button type="button" className="btn-secondary" onClick={run}>
          Export CSV
        </button>
      )}
      {running ? (
        <div className="flex items-center gap-2">
          <progress
            className="h-2 w-32 md:w-40"
            max={100}
            value={percent}
            aria-label="Export progress"
            aria-valuetext={`${state.rows} of ${state.total} rows`}
          />
          <span className="text-sm text-slate-600" aria-hidden="true">
            {state.rows} / {state.total}
          </span>
        </div>
      ) : null}
      <p role="status" className="text-xs text-slate-600" data-testid="export-status">
        {state.kind === "running" ? `Exporting… ${state.rows} of ${state.total} rows` : null}
        {state.kind === "done" ? `Exported ${state.rows} ${state.rows === 1 ? "row" : "rows"}.` : null}
        {state.kind === "canceled" ? "Export canceled." : null}
      </p>
      {state.kind === "failed" ? (
        <p role="alert" className="max-w-xs text-xs text-red-700">
          Export failed: {state.message}
        </p>
      ) : null}
    </div>
  );
}
