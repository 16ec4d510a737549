"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import type { UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { notify } from "@/components/feedback";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { updateConnectionAction } from "@/lib/actions/connections";
import { CONSTANT_FORMAT_HINTS } from "@/lib/customers/formats";
import type { ConstantSpec, KindSpec } from "@/lib/providers";
import type { constantsFormSchema } from "./constants-form-schema";
import { constantInputType, editorValues } from "./customer-preview-model";

type ConstantsFormSchema = ReturnType<typeof constantsFormSchema>;
export type ConstantsForm = UseFormReturn<z.input<ConstantsFormSchema>, unknown, z.output<ConstantsFormSchema>>;

export function useConstantsForm(kind: KindSpec, stored: Readonly<Record<string, string>>): ConstantsForm {
  return useZodForm(() => import("./constants-form-schema").then((m) => m.constantsFormSchema(kind)), {
    defaultValues: { constants: editorValues(kind.constants, stored) },
  });
}

/**
 * One row per constant of the kind (spec 2.5): the parameter it fills, a typed input, and a
 * Clear button. Saving sends every constant; a blank one is removed from the connection.
 */
export function ConstantsEditor({ connectionId, kind, form }: { connectionId: string; kind: KindSpec; form: ConstantsForm }) {
  const router = useRouter();
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, (values) => updateConnectionAction({ id: connectionId, constants: values.constants }), {
    onSuccess: (_saved, values) => {
      // The saved values, normalised (GB, not gb), become the new baseline for "unsaved changes".
      form.reset({ constants: editorValues(kind.constants, values.constants) });
      notify({ message: "Connection constants saved: new invoices use them." });
      router.refresh();
      return "Constants saved.";
    },
  });
  const saved = status !== "";
  // Save is disabled while saving, which drops the focus to the page's body: once the save is
  // committed, its confirmation takes it.
  const statusRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (saved) statusRef.current?.focus();
  }, [saved]);

  return (
    <form method="post" onSubmit={onSubmit} noValidate aria-label="Connection constants" className="space-y-4">
      <FormAlert message={message} />
      <ul className="divide-y divide-slate-100">
        {kind.constants.map((spec) => (
          <ConstantRow key={spec.name} spec={spec} form={form} fallback={kind.defaults?.[spec.target]} />
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save constants
        </SubmitButton>
        <p
          ref={statusRef}
          tabIndex={-1}
          role="status"
          className="text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
          data-testid="constants-status"
        >
          {saved && !form.formState.isDirty ? (
            <span className="text-green-800">Constants saved.</span>
          ) : form.formState.isDirty ? (
            <span className="text-slate-600">Unsaved changes.</span>
          ) : null}
        </p>
      </div>
    </form>
  );
}

function ConstantRow({ spec, form, fallback }: { spec: ConstantSpec; form: ConstantsForm; fallback?: string }) {
  const name = `constants.${spec.name}` as const;
  const id = `constant-${spec.name}`;
  const error = form.getFieldState(name, form.formState).error?.message;
  const value = form.watch(name);
  const help = spec.format === "text" ? undefined : CONSTANT_FORMAT_HINTS[spec.format];
  const describedBy = [`${id}-target`, help ? `${id}-help` : null, `${id}-error`].filter(Boolean).join(" ");
  const empty = typeof value !== "string" || value === "";

  const clear = () => {
    form.setValue(name, "", { shouldDirty: true, shouldValidate: true });
    // The button disables itself once the value is gone; keep keyboard focus somewhere useful.
    form.setFocus(name);
  };

  return (
    <li className="grid gap-1 py-3 first:pt-0" data-testid={`constant-row-${spec.name}`}>
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <label htmlFor={id} className="label">
          {spec.label}
        </label>
        <span className="badge bg-slate-100 font-mono text-slate-700">{spec.name}</span>
        <span id={`${id}-target`} className="text-xs text-slate-600">
          fills <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-slate-800">{spec.target}</code>
        </span>
      </div>
      <div className="flex gap-2">
        <input
          id={id}
          type={constantInputType(spec.format)}
          className="input"
          placeholder={fallback ? `Default: ${fallback}` : spec.format === "date_of_birth" ? "YYYY-MM-DD" : "Not set"}
          inputMode={spec.format === "date_of_birth" ? "numeric" : undefined}
          // Rendered into the server HTML, so saved values show before the page's script runs.
          defaultValue={String(form.formState.defaultValues?.constants?.[spec.name] ?? "")}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize={spec.format === "country" ? "characters" : spec.format === "text" ? undefined : "none"}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...form.register(name)}
        />
        <button type="button" className="btn-secondary shrink-0" onClick={clear} disabled={empty} aria-label={`Clear ${spec.label}`}>
          Clear
        </button>
      </div>
      {help ? (
        <p id={`${id}-help`} className="help">
          {help}
        </p>
      ) : null}
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {error}
      </p>
    </li>
  );
}
