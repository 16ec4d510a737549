import type { ReactNode } from "react";

/** A labelled field: the label, help and error are tied to the control for assistive technology. */
export function Field({
  id,
  label,
  help,
  error,
  required,
  children,
}: {
  id: string;
  label: string;
  help?: ReactNode;
  error?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
        {required ? <span className="text-red-700"> *</span> : null}
      </label>
      <div className="mt-1">{children}</div>
      {help ? (
        <p id={`${id}-help`} className="help">
          {help}
        </p>
      ) : null}
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {error}
      </p>
    </div>
  );
}

/** aria props for a control inside <Field>. */
export function fieldAria(id: string, error: string | undefined, hasHelp: boolean) {
  const describedBy = [hasHelp ? `${id}-help` : null, `${id}-error`].filter(Boolean).join(" ");
  return { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy };
}

export function FormAlert({ message }: { message?: string }) {
  return (
    <div
      role="alert"
      aria-live="assertive"
      data-testid="form-alert"
      className={message ? "rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" : "sr-only"}
    >
      {message}
    </div>
  );
}

export function SubmitButton({ pending, children, pendingLabel }: { pending: boolean; children: ReactNode; pendingLabel: string }) {
  return (
    <button type="submit" className="btn-primary" disabled={pending} aria-busy={pending}>
      {pending ? (
        <>
          <span className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" aria-hidden="true" />
          {pendingLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}
