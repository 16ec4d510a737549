"use client";

import { useState } from "react";
import { useForm, type FieldValues, type Path, type Resolver, type UseFormProps, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import type { FormErrors } from "@/lib/actions/result";
import { useServerMarkup } from "./server-markup";

/**
 * A resolver that loads zod, the resolver and the schema on the first check (a field's blur or the
 * submit), not with the page: they are about a third of a form page's JavaScript, and a page that
 * is only read never needs them. A failed load (the network went away) is tried again on the next check.
 */
export function lazyZodResolver<S extends z.ZodType<FieldValues, FieldValues>>(load: () => Promise<S>): Resolver<z.input<S>, unknown, z.output<S>> {
  let ready: Promise<Resolver<z.input<S>, unknown, z.output<S>>> | undefined;
  return async (values, context, options) => {
    ready ??= Promise.all([import("@hookform/resolvers/zod"), load()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as Resolver<z.input<S>, unknown, z.output<S>>,
    );
    try {
      return await (
        await ready
      )(values, context, options);
    } catch (error) {
      ready = undefined;
      throw error;
    }
  };
}

/**
 * react-hook-form bound to a zod schema: the same schema the server action parses with, loaded
 * with `load` (a dynamic import) on the first check. `load` is read once, on the first render.
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  load: () => Promise<S>,
  props?: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, "resolver">,
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  const [resolver] = useState(() => lazyZodResolver(load));
  const form = useForm<z.input<S>, unknown, z.output<S>>({ ...props, resolver, mode: "onTouched" });
  const serverMarkup = useServerMarkup();
  useState(() => serverMarkup && withRenderedValues(form));
  return form;
}

/** A registered radio's props for the server's markup of a form that loads on use: checked there as the form's value says. */
export function useRadioMarkup(): (checked: boolean) => { defaultValue?: undefined; defaultChecked?: boolean } {
  const serverMarkup = useServerMarkup();
  return (checked) => (serverMarkup ? { defaultValue: undefined, defaultChecked: checked } : {});
}

/**
 * react-hook-form puts values into uncontrolled inputs through their refs, which a server render
 * never calls: its inputs would come out blank. In the server's markup of a form that loads on use
 * (components/forms/hydrate-on-use.tsx), which is shown until the form loads, each registered input
 * also gets its value as its default (`defaultValue`, or `defaultChecked` for a boolean); in the
 * browser react-hook-form's refs do it, as ever. A radio passes its own `value`: `useRadioMarkup`.
 * The returned object is react-hook-form's own (stable across renders), so its register is replaced once.
 */
function withRenderedValues<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues> | UseFormReturn<T, unknown, never>) {
  const register = form.register;
  form.register = ((name: Path<T>, options?: Parameters<typeof register>[1]) => {
    const field = register(name, options);
    const value: unknown = form.getValues(name);
    if (typeof value === "boolean") return { ...field, defaultChecked: value };
    if (typeof value === "string" || typeof value === "number") return { ...field, defaultValue: value };
    return field;
  }) as typeof register;
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
