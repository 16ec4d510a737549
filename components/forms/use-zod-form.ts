"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type FieldValues, type Path, type UseFormProps, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import type { ActionResult } from "@/lib/actions/result";

/** react-hook-form bound to a zod schema: the same schema the server action parses with. */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  props?: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, "resolver">,
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({ ...props, resolver: zodResolver(schema), mode: "onTouched" });
}

/** Puts a failed action's field errors on their fields; returns the message for the form's alert. */
export function applyActionErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, FieldValues> | UseFormReturn<T, unknown, never>,
  result: Extract<ActionResult<unknown>, { ok: false }>,
): string | undefined {
  let unplaced: string | undefined;
  for (const error of result.errors) {
    const name = error.path.join(".");
    if (name) form.setError(name as Path<T>, { type: "server", message: error.message }, { shouldFocus: true });
    else unplaced ??= error.message;
  }
  return result.message ?? unplaced ?? (result.errors.length ? "Please correct the marked fields." : undefined);
}
