"use client";

import { useState, useTransition } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import type { ActionResult } from "@/lib/actions/result";
import { applyActionErrors } from "./use-zod-form";

export type ActionFormOptions<TOutput, T> = {
  /**
   * After the action succeeded: resets, notices, navigation. What it returns is the form's status
   * line (role="status"); nothing leaves it empty.
   */
  onSuccess?: (data: T, values: TOutput) => string | void;
  /**
   * A form with an error summary: the summary takes focus instead of the first field, after the
   * server's errors are placed and when the browser's own check fails.
   */
  focusSummary?: () => void;
};

export type ActionForm = {
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  pending: boolean;
  /** The form's alert: a refusal, or "Please correct the marked fields." */
  message: string | undefined;
  status: string;
};

/**
 * The submit of every form that sends its values to a server action: checks them with the form's
 * schema, clears the last alert and status, shows pending while the action runs, and puts a
 * refusal's errors on their fields (the alert gets its message).
 */
export function useActionForm<TValues extends FieldValues, TOutput, T>(
  form: UseFormReturn<TValues, unknown, TOutput>,
  action: (values: TOutput) => Promise<ActionResult<T>>,
  options: ActionFormOptions<TOutput, T> = {},
): ActionForm {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const [status, setStatus] = useState("");
  const { onSuccess, focusSummary } = options;

  const onSubmit = form.handleSubmit(
    (values) =>
      startTransition(async () => {
        setMessage(undefined);
        setStatus("");
        const result = await action(values);
        if (!result.ok) {
          const anyForm = form as unknown as UseFormReturn<FieldValues, unknown, FieldValues>;
          setMessage(applyActionErrors(anyForm, result, focusSummary ? { focus: false } : {}));
          focusSummary?.();
          return;
        }
        const next = onSuccess?.(result.data, values);
        if (next) setStatus(next);
      }),
    focusSummary ? () => focusSummary() : undefined,
  );

  return { onSubmit, pending, message, status };
}
