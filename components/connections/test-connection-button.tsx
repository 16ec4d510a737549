"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import type { HealthReport } from "@/lib/actions/test-connection-message";

export type TestConnectionState = {
  pending: boolean;
  report?: HealthReport;
  error?: string;
  /** `after` runs once the answer is shown (the connection page refreshes its audit trail). */
  run: (action: () => Promise<ActionResult<HealthReport>>, after?: () => void) => void;
};

/** Runs a Test connection action and keeps its last answer (or the refusal of the input). */
export function useTestConnection(onRefused?: (result: Extract<ActionResult<HealthReport>, { ok: false }>) => string | undefined): TestConnectionState {
  const [pending, startTransition] = useTransition();
  const [report, setReport] = useState<HealthReport>();
  const [error, setError] = useState<string>();
  const run = (action: () => Promise<ActionResult<HealthReport>>, after?: () => void) =>
    startTransition(async () => {
      setReport(undefined);
      setError(undefined);
      const result = await action();
      if (result.ok) setReport(result.data);
      else setError(onRefused?.(result) ?? result.message ?? "The test could not run.");
      after?.();
    });
  return { pending, report, error, run };
}

/** The answer in plain words, announced politely: "Testing…", then the result and what was checked. */
export function TestConnectionResult({ state }: { state: TestConnectionState }) {
  const text = state.pending ? "Testing…" : (state.report?.message ?? state.error);
  const good = state.report?.kind === "ok";
  const detail = state.pending ? undefined : state.report?.detail;
  return (
    <div role="status" aria-live="polite" className="space-y-1">
      <p data-testid="test-connection-result" className={`text-sm ${good ? "text-green-800" : state.pending ? "text-slate-600" : "text-red-700"}`}>
        {text}
      </p>
      {detail ? (
        <p data-testid="test-connection-detail" className="text-xs text-slate-600">
          {detail}
        </p>
      ) : null}
    </div>
  );
}
