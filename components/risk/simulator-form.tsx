"use client";

import { useState } from "react";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { simulateRiskAction } from "@/lib/actions/risk";
import type { RiskSimulation } from "@/lib/risk/form-schemas";

/** The simulator: what the rules would do now with a card BIN, a client address and an e-mail; nothing is counted. */
export function SimulatorForm({ mode }: { mode: "test" | "live" }) {
  const [answer, setAnswer] = useState<RiskSimulation>();
  const form = useZodForm(() => import("@/lib/risk/form-schemas").then((m) => m.riskSimulationSchema), {
    defaultValues: { mode, bin: "", address: "", email: "" },
  });
  const submit = useActionForm(form, simulateRiskAction, {
    onSuccess: (result) => {
      setAnswer(result);
    },
  });
  const errors = form.formState.errors;
  const fields = [
    ["bin", "Card BIN", errors.bin?.message, "numeric"],
    ["address", "Client address", errors.address?.message, "text"],
    ["email", "Customer e-mail", errors.email?.message, "email"],
  ] as const;
  return (
    <form onSubmit={submit.onSubmit} noValidate aria-label="Simulate a Pay" className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-3">
        {fields.map(([name, label, error, inputMode]) => (
          <Field key={name} id={`simulate-${name}`} label={label} error={error}>
            <input
              className="input w-full"
              autoComplete="off"
              inputMode={inputMode}
              {...fieldAria(`simulate-${name}`, error, false)}
              {...form.register(name)}
            />
          </Field>
        ))}
      </div>
      <FormAlert message={submit.message} />
      <SubmitButton pending={submit.pending} pendingLabel="Checking…">
        Check
      </SubmitButton>
      <div role="status" aria-live="polite" data-testid="risk-simulation" className="text-sm text-slate-800">
        {answer ? (
          <>
            <p className="font-medium">{answer.sentence}</p>
            {answer.counters.length > 0 ? (
              <ul className="mt-1 list-disc pl-5">
                {answer.counters.map((row) => (
                  <li key={row.rule}>{`${row.label}: ${row.count} of ${row.limit}`}</li>
                ))}
              </ul>
            ) : null}
          </>
        ) : null}
      </div>
    </form>
  );
}
