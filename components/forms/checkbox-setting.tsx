"use client";

import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

/**
 * One on/off setting of a settings form: the checkbox, its label, what it does and its error,
 * tied together for screen readers (the settings forms for live pins and for owners' two-factor).
 */
export function CheckboxSetting({
  id,
  label,
  help,
  error,
  register,
}: {
  id: string;
  label: string;
  help: ReactNode;
  error?: string;
  register: UseFormRegisterReturn;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        className="mt-1 size-4"
        aria-describedby={`${id}-help ${id}-error`}
        aria-invalid={error ? true : undefined}
        {...register}
      />
      <div>
        <label htmlFor={id} className="label">
          {label}
        </label>
        <p id={`${id}-help`} className="help">
          {help}
        </p>
        <p id={`${id}-error`} className="field-error" aria-live="polite">
          {error}
        </p>
      </div>
    </div>
  );
}
