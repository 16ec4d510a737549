"use client";

import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { saveSuccessSettingsAction } from "@/lib/actions/routing";
import type { SuccessSettingsAttributes } from "@/lib/routing/success-settings";

const BOUNDS = { window_hours: [1, 168], min_sample: [1, 10_000], exploration_percent: [0, 20] } as const;

/**
 * The Routing page's "Success-rate ordering" settings, owners only: the window, the minimum sample
 * and the exploration share that rules ordered by success rate use. The same schema checks the
 * fields here, in the action and in PATCH /api/routing/settings. Support members see them read-only.
 */
export function SuccessSettingsForm({ settings, readOnly = false }: { settings: SuccessSettingsAttributes; readOnly?: boolean }) {
  const form = useZodForm(() => import("@/lib/routing/success-settings").then((m) => m.successSettingsSchema), { defaultValues: settings });
  const errors = form.formState.errors;
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, saveSuccessSettingsAction, {
    onSuccess: (saved) => {
      form.reset(saved);
      return `Saved: rates over the last ${saved.window_hours} h, trusted from ${saved.min_sample} attempts, ${saved.exploration_percent}% exploration.`;
    },
  });
  const input = (name: keyof typeof BOUNDS, id: string, error: string | undefined) => (
    <input
      className="input w-32 tabular-nums"
      type="number"
      inputMode="numeric"
      min={BOUNDS[name][0]}
      max={BOUNDS[name][1]}
      step={1}
      readOnly={readOnly}
      aria-readonly={readOnly || undefined}
      {...fieldAria(id, error, true)}
      {...form.register(name)}
    />
  );
  const error = (name: keyof typeof BOUNDS) => errors[name]?.message as string | undefined;

  return (
    <section className="card mt-6 min-w-0" aria-labelledby="success-settings-title">
      <h2 id="success-settings-title" className="text-base font-semibold">
        Success-rate ordering
      </h2>
      <p className="text-sm text-slate-600">
        A rule whose connections are ordered &ldquo;By success rate&rdquo; tries them best first, by how often each processed this service&apos;s invoices
        lately. Card and customer declines do not count against a provider.
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-3 space-y-3" aria-label="Success-rate ordering settings">
        <div className="grid gap-3 sm:grid-cols-3">
          <Field
            id="success-window"
            label="Window (hours)"
            error={error("window_hours")}
            help="Rates count the attempts of this many past hours: 1 to 168 (7 days)."
          >
            {input("window_hours", "success-window", error("window_hours"))}
          </Field>
          <Field
            id="success-min-sample"
            label="Minimum sample (attempts)"
            error={error("min_sample")}
            help="Until a connection has this many attempts in the window, it keeps its listed place."
          >
            {input("min_sample", "success-min-sample", error("min_sample"))}
          </Field>
          <Field
            id="success-exploration"
            label="Exploration share (%)"
            error={error("exploration_percent")}
            help="This share of invoices (0 to 20%) tries another connection first, so a recovered provider gets traffic back."
          >
            {input("exploration_percent", "success-exploration", error("exploration_percent"))}
          </Field>
        </div>
        <FormAlert message={message} />
        {readOnly ? (
          <p className="text-sm text-slate-700">Only an owner can change these settings.</p>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <SubmitButton pending={pending} pendingLabel="Saving…">
              Save ordering settings
            </SubmitButton>
            <p role="status" aria-live="polite" className="text-sm text-slate-700">
              {status}
            </p>
          </div>
        )}
      </form>
    </section>
  );
}
