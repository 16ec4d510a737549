"use client";

import type { ReactNode } from "react";
import type { FieldPath, UseFormReturn } from "react-hook-form";
import { Field, fieldAria } from "@/components/forms/field";
import type { ComposerValues } from "@/lib/composer/form-values";

export type ComposerForm = UseFormReturn<ComposerValues, unknown, ComposerValues>;
export type ComposerField = FieldPath<ComposerValues>;

export const fieldId = (name: string): string => `composer-${name.replace(/[._]/g, "-")}`;

/** The message of a (possibly nested) field's error, e.g. customer.address.city. */
export function errorAt(form: ComposerForm, name: string): string | undefined {
  let node: unknown = form.formState.errors;
  for (const part of name.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}

export function TextField({
  form,
  name,
  label,
  help,
  type = "text",
  required,
  readOnly,
  inputMode,
  autoComplete = "off",
  after,
}: {
  form: ComposerForm;
  name: ComposerField;
  label: string;
  help?: ReactNode;
  type?: "text" | "email" | "tel" | "date";
  required?: boolean;
  readOnly?: boolean;
  inputMode?: "decimal" | "numeric";
  autoComplete?: string;
  after?: ReactNode;
}) {
  const id = fieldId(name);
  const error = errorAt(form, name);
  const input = (
    <input
      className={`input ${readOnly ? "bg-slate-100 text-slate-700" : ""}`}
      type={type}
      readOnly={readOnly}
      inputMode={inputMode}
      autoComplete={autoComplete}
      spellCheck={false}
      {...fieldAria(id, error, Boolean(help))}
      {...form.register(name)}
    />
  );
  return (
    <Field id={id} label={label} help={help} error={error} required={required}>
      {after ? (
        <div className="flex gap-2">
          <div className="min-w-0 flex-1">{input}</div>
          {after}
        </div>
      ) : (
        input
      )}
    </Field>
  );
}

/** A checkbox with its label to the right, and help and error tied to it. */
export function CheckboxField({
  form,
  name,
  label,
  help,
  role,
}: {
  form: ComposerForm;
  name: ComposerField;
  label: ReactNode;
  help?: ReactNode;
  role?: "switch";
}) {
  const id = fieldId(name);
  const error = errorAt(form, name);
  return (
    <div>
      <div className="flex items-start gap-2">
        <input type="checkbox" role={role} className="mt-0.5 size-4" {...fieldAria(id, error, Boolean(help))} {...form.register(name)} />
        <label htmlFor={id} className="text-sm text-slate-800">
          {label}
        </label>
      </div>
      {help ? (
        <p id={`${id}-help`} className="help ml-6">
          {help}
        </p>
      ) : null}
      <p id={`${id}-error`} className="field-error ml-6" aria-live="polite">
        {error}
      </p>
    </div>
  );
}

export function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="card min-w-0 space-y-4">
      <legend className="float-left mb-1 w-full text-base font-semibold">{title}</legend>
      {description ? <p className="clear-left text-sm text-slate-600">{description}</p> : null}
      <div className="clear-left space-y-4">{children}</div>
    </fieldset>
  );
}
