"use client";

import { useEffect, useRef, type FormEvent, type ReactNode } from "react";
import { SubmitButton } from "@/components/forms/field";
import type { CardFormValues } from "@/lib/pay/card-checks";
import { formatCardNumberInput, formatExpiryInput } from "./card-input-format";

export type CardFormErrors = Partial<Record<keyof CardFormValues, string>>;

type Props = {
  values: CardFormValues;
  errors: CardFormErrors;
  takesCvc: boolean;
  pending: boolean;
  onChange: (values: CardFormValues) => void;
  onSubmit: () => void;
};

const FIELDS = ["number", "expiry", "cvc", "holder"] as const;

/** Focuses the first field with an error, so a keyboard or screen reader user lands on it. */
function focusFirstError(form: HTMLFormElement | null, errors: CardFormErrors): void {
  const first = FIELDS.find((name) => errors[name]);
  if (first) form?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
}

function CardField(props: {
  name: keyof CardFormValues;
  label: string;
  error?: string;
  hint?: string;
  children: (aria: { id: string; name: string; "aria-invalid"?: true; "aria-describedby": string }) => ReactNode;
}) {
  const id = `pay-${props.name}`;
  const describedBy = [props.hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={id} className="label">
        {props.label}
      </label>
      {props.hint ? (
        <p id={`${id}-hint`} className="help mt-0">
          {props.hint}
        </p>
      ) : null}
      <div className="mt-1">{props.children({ id, name: props.name, ...(props.error ? { "aria-invalid": true } : {}), "aria-describedby": describedBy })}</div>
      <p id={`${id}-error`} className="field-error">
        {props.error}
      </p>
    </div>
  );
}

/** The card form: labelled inputs with the browser's card autofill names; checks run on submit. */
export function CardForm({ values, errors, takesCvc, pending, onChange, onSubmit }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  // Every refused submit hands over a new errors object: move to its first field once.
  useEffect(() => focusFirstError(formRef.current, errors), [errors]);
  const set = (name: keyof CardFormValues, value: string) => onChange({ ...values, [name]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form ref={formRef} method="post" noValidate onSubmit={submit} className="space-y-4" data-testid="card-form" aria-label="Card payment">
      <CardField name="number" label="Card number" error={errors.number}>
        {(aria) => (
          <input
            {...aria}
            className="input font-mono"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 5678 9012 3456"
            value={values.number}
            onChange={(event) => set("number", formatCardNumberInput(event.target.value))}
          />
        )}
      </CardField>
      <div className="grid grid-cols-2 gap-3">
        <CardField name="expiry" label="Expiry date" hint="MM/YY" error={errors.expiry}>
          {(aria) => (
            <input
              {...aria}
              className="input"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              value={values.expiry}
              onChange={(event) => set("expiry", formatExpiryInput(event.target.value))}
            />
          )}
        </CardField>
        {takesCvc ? (
          <CardField name="cvc" label="CVC" hint="3 or 4 digits" error={errors.cvc}>
            {(aria) => (
              <input
                {...aria}
                className="input"
                inputMode="numeric"
                autoComplete="cc-csc"
                maxLength={4}
                value={values.cvc ?? ""}
                onChange={(event) => set("cvc", event.target.value.replace(/\D/g, ""))}
              />
            )}
          </CardField>
        ) : null}
      </div>
      <CardField name="holder" label="Cardholder name" error={errors.holder}>
        {(aria) => (
          <input {...aria} className="input" autoComplete="cc-name" value={values.holder} onChange={(event) => set("holder", event.target.value)} />
        )}
      </CardField>
      <div className="[&>button]:w-full [&>button]:py-3 [&>button]:text-base">
        <SubmitButton pending={pending} pendingLabel="Paying…">
          Pay
        </SubmitButton>
      </div>
    </form>
  );
}
