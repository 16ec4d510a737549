"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type FieldValues, type Path, type UseFormProps, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import type { FormErrors } from "@/lib/actions/result";

/** react-hook-form bound to a zod schema: the same schema the server action parses with. */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  props?: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, "resolver">,
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({ ...props, resolver: zodResolver(schema), mode: "onTouched" });
}

/**
 * Puts form errors (a failed action's, or an API answer's placed by the composer) on their fields,
 * focusing the first; returns the message for the form's alert.
 */
export function applyActionErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, FieldValues> | UseFormReturn<T, unknown, never>,
  errors: FormErrors,
  options: { focus?: boolean } = {},
): string | undefined {
  const entries = Object.entries(errors.fieldErrors);
  // A form with an error summary focuses the summary instead (focus: false).
  const focus = options.focus ?? true;
  entries.forEach(([name, message], index) => {
    form.setError(name as Path<T>, { type: "server", message }, { shouldFocus: focus && index === 0 });
  });
  return errors.message ?? (entries.length ? "Please correct the marked fields." : undefined);
}
