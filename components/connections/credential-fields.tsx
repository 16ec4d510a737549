"use client";

import { Controller, useWatch, type FieldValues, type UseFormReturn } from "react-hook-form";
import type { SummaryItem } from "@/components/forms/error-summary";
import { Field } from "@/components/forms/field";
import type { CredentialView } from "@/lib/connections/store";
import type { FieldSpec, KindSpec } from "@/lib/providers";
import { KeyFileInput } from "./key-file-input";

type Form = UseFormReturn<FieldValues, unknown, FieldValues>;

function errorAt(form: Form, name: string): string | undefined {
  const parts = name.split(".");
  let node: unknown = form.formState.errors;
  for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
  return (node as { message?: string } | undefined)?.message;
}

function storedHint(stored: CredentialView | undefined): string | undefined {
  if (!stored?.set) return undefined;
  return stored.secret ? `Stored (${stored.display}). Leave blank to keep it.` : "Stored. Leave blank to keep it.";
}

/**
 * The error summary's entries in the form's own order: label, mode, then the kind's fields; an
 * error under a name the form does not show (a server problem about the whole set) comes last.
 */
export function summaryItems(kind: KindSpec, idPrefix: string, errors: Map<string, string>): SummaryItem[] {
  const items: SummaryItem[] = [];
  const rest = new Map(errors);
  const take = (name: string, controlId: string, label: string) => {
    const message = rest.get(name);
    if (message === undefined) return;
    items.push({ name, controlId, label, message });
    rest.delete(name);
  };
  take("label", `${idPrefix}-label`, "Label");
  take("mode", `${idPrefix}-mode-test`, "Mode");
  for (const field of kind.fields) take(`credentials.${field.id}`, `${idPrefix}-${field.id}`, field.label);
  for (const [name, message] of rest) items.push({ name, controlId: `${idPrefix}-label`, label: name, message });
  return items;
}

/**
 * Renders a kind's credential fields from the registry: the same FieldSpecs whose schemas
 * validate them. In edit mode secrets and key files start blank and keep the stored value.
 */
export function CredentialFields({ form, kind, idPrefix, stored }: { form: Form; kind: KindSpec; idPrefix: string; stored?: CredentialView[] }) {
  const values = useWatch({ control: form.control, name: "credentials" }) as Record<string, unknown> | undefined;
  const shown = kind.fields.filter((f) => !f.hidden && (!f.showWhen || values?.[f.showWhen.field] === f.showWhen.equals));
  return (
    <div className="grid gap-4">
      {shown.map((field) => (
        <CredentialField key={field.id} form={form} field={field} id={`${idPrefix}-${field.id}`} stored={stored?.find((s) => s.id === field.id)} />
      ))}
    </div>
  );
}

function CredentialField({ form, field, id, stored }: { form: Form; field: FieldSpec; id: string; stored?: CredentialView }) {
  const name = `credentials.${field.id}`;
  const error = errorAt(form, name);
  const hint = field.secret || field.input === "key_file" ? storedHint(stored) : undefined;
  const help = [field.help, hint].filter(Boolean).join(" ");
  const describedBy = `${id}-help ${id}-error`;
  const aria = { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy };
  const required = (field.required || Boolean(field.showWhen)) && !hint;

  if (field.input === "toggle") {
    return (
      <div>
        <div className="flex items-start gap-3">
          <input type="checkbox" role="switch" className="mt-1 size-4" {...aria} {...form.register(name)} />
          <label htmlFor={id} className="label">
            {field.label}
          </label>
        </div>
        <p id={`${id}-help`} className="help">
          {help}
        </p>
        <p id={`${id}-error`} className="field-error" aria-live="polite">
          {error}
        </p>
      </div>
    );
  }

  if (field.input === "multi_select") {
    return (
      <fieldset aria-describedby={describedBy}>
        <legend className="label">{field.label}</legend>
        <Controller
          control={form.control}
          name={name}
          render={({ field: control }) => {
            const selected = Array.isArray(control.value) ? (control.value as string[]) : [];
            return (
              <div className="mt-1 flex flex-wrap gap-4">
                {field.options?.map((option, index) => (
                  <label key={option.value} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      // The first box carries the field's id, so the error summary can move focus here.
                      id={index === 0 ? id : undefined}
                      className="size-4"
                      checked={selected.includes(option.value)}
                      onChange={(e) => control.onChange(e.target.checked ? [...selected, option.value] : selected.filter((v) => v !== option.value))}
                    />
                    {option.label}
                  </label>
                ))}
              </div>
            );
          }}
        />
        <p id={`${id}-help`} className="help">
          {help}
        </p>
        <p id={`${id}-error`} className="field-error" aria-live="polite">
          {error}
        </p>
      </fieldset>
    );
  }

  return (
    <Field id={id} label={field.label} help={help} error={error} required={required}>
      {field.input === "select" ? (
        <select className="input" {...aria} {...form.register(name)}>
          <option value="">Choose…</option>
          {field.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : field.input === "key_file" ? (
        <Controller
          control={form.control}
          name={name}
          render={({ field: control }) => (
            <KeyFileInput
              id={id}
              label={field.label}
              value={typeof control.value === "string" ? control.value : ""}
              onChange={(text) => {
                control.onChange(text);
                void form.trigger(name);
              }}
              onError={(message) => form.setError(name, { type: "client", message })}
              describedBy={describedBy}
              invalid={Boolean(error)}
            />
          )}
        />
      ) : (
        <input
          className="input"
          type={field.input === "secret" ? "password" : field.input === "url" ? "url" : "text"}
          autoComplete="off"
          spellCheck={false}
          placeholder={hint ? "Leave blank to keep the stored value" : field.placeholder}
          {...aria}
          {...form.register(name)}
        />
      )}
    </Field>
  );
}
