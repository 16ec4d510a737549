"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/feedback";
import { setSandboxFaultAction } from "@/lib/actions/sandbox-faults";
import { SANDBOX_FAULT_LABELS, SANDBOX_FAULT_MODES, type SandboxFaultMode } from "@/lib/sandbox/fault-modes";

/**
 * How this test-mode connection's sandbox behaves, to see what payments and
 * payouts do when the provider fails. The page shows it for test-mode connections only.
 */
export function SandboxBehaviour({ id, current }: { id: string; current: SandboxFaultMode }) {
  const [mode, setMode] = useState<SandboxFaultMode>(current);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const router = useRouter();

  const apply = () =>
    startTransition(async () => {
      const result = await setSandboxFaultAction({ id, mode });
      if (!result.ok) {
        setError(result.message ?? "The change was refused.");
        return;
      }
      setError(undefined);
      notify({ message: result.data.message });
      router.refresh();
    });

  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-600">
        Makes this connection&apos;s sandbox fail on purpose. It applies to every request made with this connection&apos;s credentials (payments, payouts and
        status requests) until you set it back to Normal. The sandbox knows the connection by its credentials, as the provider would: test connections sharing
        the same credentials share one sandbox account.
      </p>
      <p data-testid="sandbox-fault-current">
        Now: <span className="font-medium">{SANDBOX_FAULT_LABELS[current].label}</span>
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="sandbox-fault" className="mb-1 block font-medium">
            Sandbox behaviour
          </label>
          <select
            id="sandbox-fault"
            className="input"
            value={mode}
            aria-describedby="sandbox-fault-help"
            onChange={(event) => setMode(event.target.value as SandboxFaultMode)}
          >
            {SANDBOX_FAULT_MODES.map((value) => (
              <option key={value} value={value}>
                {SANDBOX_FAULT_LABELS[value].label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn-secondary" disabled={pending || mode === current} onClick={apply}>
          {pending ? "Saving…" : "Apply"}
        </button>
      </div>
      <p id="sandbox-fault-help" className="text-slate-600">
        {SANDBOX_FAULT_LABELS[mode].description}
      </p>
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
