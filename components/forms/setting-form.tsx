"use client";

import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import type { DefaultValues, FieldValues, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { notify } from "@/components/feedback";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm, type ActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import type { ActionResult } from "@/lib/actions/result";

/** What a setting says once saved: its status line, and a notice too where the change reaches beyond the form. */
type Saved<TValues> = { status: string; notice?: string; values?: TValues };

/**
 * One saved setting of the Settings page: the form bound to its schema (loaded on the first check),
 * a leave-the-page warning while it holds unsaved changes, and on success the saved values become
 * the form's clean state and the page's server parts are read again. `saved` words the outcome.
 */
export function useSettingForm<S extends z.ZodType<FieldValues, FieldValues>, T>(
  load: () => Promise<S>,
  defaultValues: DefaultValues<z.input<S>>,
  action: (values: z.output<S>) => Promise<ActionResult<T>>,
  saved: (result: T, values: z.output<S>) => Saved<z.input<S>>,
): { form: UseFormReturn<z.input<S>, unknown, z.output<S>> } & ActionForm {
  const form = useZodForm(load, { defaultValues });
  const router = useRouter();
  useUnsavedForm(form);
  const submit = useActionForm(form, action, {
    onSuccess: (result, values) => {
      const words = saved(result, values);
      form.reset(words.values ?? (values as z.input<S>));
      if (words.notice) notify({ message: words.notice });
      router.refresh();
      return words.status;
    },
  });
  return { form, ...submit };
}

/**
 * The skeleton every setting shares: its fields, the form's alert, then the Save button with the
 * status line beside it; or, for a member who may only read it, a line saying who can change it.
 */
export function SettingForm({
  label,
  submit,
  saveLabel,
  readOnlyNote,
  actions,
  className = "space-y-3",
  children,
}: {
  label: string;
  submit: ActionForm;
  saveLabel: string;
  /** Set when the member may only read the setting: replaces the Save button. */
  readOnlyNote?: string;
  /** Buttons before Save (e.g. "Use this browser's zone"). */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={submit.onSubmit} noValidate className={className} aria-label={label}>
      {children}
      <FormAlert message={submit.message} />
      {readOnlyNote ? (
        <p className="text-sm text-slate-700">{readOnlyNote}</p>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {actions}
          <SubmitButton pending={submit.pending} pendingLabel="Saving…">
            {saveLabel}
          </SubmitButton>
          <p role="status" aria-live="polite" className="text-sm text-slate-700">
            {submit.status}
          </p>
        </div>
      )}
    </form>
  );
}
