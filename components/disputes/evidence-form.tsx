"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState, useTransition } from "react";
import { Field, fieldAria, FormAlert } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { saveDisputeEvidenceAction, submitDisputeAction } from "@/lib/actions/disputes";
import { EVIDENCE_FIELD_LABELS, EVIDENCE_TEXT_FIELDS, EVIDENCE_TEXT_MAX, FILE_MAX_BYTES, type EvidenceTextField } from "@/lib/disputes/contract";

type EvidenceFile = { id: string; filename: string; size: string };

type Props = {
  disputeId: string;
  /** The saved draft's text, by field. */
  draft: Partial<Record<EvidenceTextField, string>>;
  files: EvidenceFile[];
  /** "120.00 EUR" and "8 Dec 2026, 14:00 UTC (in 6 days 23 hours)": what the confirmation states. */
  amountText: string;
  deadlineText: string;
};

const ACCEPTED_TYPES = "application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg";

/**
 * The dispute's evidence: five text fields (Save draft keeps them on the server, so they survive
 * leaving the page; leaving with unsaved edits asks first), files uploaded at once onto the draft,
 * and Submit evidence, which asks first, stating the amount and the deadline, then saves the text
 * as it stands and sends the draft to the provider, once.
 */
export function EvidenceForm({ disputeId, draft, files, amountText, deadlineText }: Props) {
  const router = useRouter();
  const ids = useId();
  const defaults = { disputeId, ...Object.fromEntries(EVIDENCE_TEXT_FIELDS.map((field) => [field, draft[field] ?? ""])) };
  const form = useZodForm(() => import("@/lib/disputes/form-schema").then((m) => m.disputeEvidenceFormSchema), { defaultValues: defaults });
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, saveDisputeEvidenceAction, {
    onSuccess: (_saved, values) => {
      form.reset(values);
      return "Draft saved. It stays here until you submit it.";
    },
  });

  const [fileError, setFileError] = useState<string>();
  const [uploading, setUploading] = useState(false);
  const [fileStatus, setFileStatus] = useState("");
  const fileRef = useRef<HTMLInputElement>(null);
  async function upload(file: File) {
    setFileError(undefined);
    setFileStatus("");
    if (file.size > FILE_MAX_BYTES) {
      setFileError(`The file must not exceed 5 MB; ${file.name} has ${(file.size / 1024 / 1024).toFixed(1)} MB.`);
      return;
    }
    setUploading(true);
    try {
      const body = new FormData();
      body.set("file", file);
      const response = await fetch(`/api/dashboard/disputes/${encodeURIComponent(disputeId)}/files`, { method: "POST", body });
      if (!response.ok) {
        const answer = (await response.json().catch(() => undefined)) as { errors?: { detail?: string }[] } | undefined;
        setFileError(answer?.errors?.[0]?.detail ?? `The upload failed (the server answered ${response.status}).`);
        return;
      }
      setFileStatus(`${file.name} uploaded and added to the draft.`);
      if (fileRef.current) fileRef.current.value = "";
      router.refresh();
    } catch {
      setFileError("The upload did not reach the server; try again.");
    } finally {
      setUploading(false);
    }
  }

  const [confirming, setConfirming] = useState(false);
  const [submitting, startSubmit] = useTransition();
  const [submitError, setSubmitError] = useState<string>();
  const submit = () =>
    startSubmit(async () => {
      setSubmitError(undefined);
      const values = form.getValues();
      const saved = await saveDisputeEvidenceAction(values);
      if (!saved.ok) {
        setConfirming(false);
        setSubmitError(saved.message ?? "Correct the marked fields, then submit again.");
        for (const [field, text] of Object.entries(saved.fieldErrors)) form.setError(field as EvidenceTextField, { message: text });
        return;
      }
      form.reset(values);
      const sent = await submitDisputeAction({ disputeId });
      setConfirming(false);
      if (!sent.ok) {
        setSubmitError(sent.message ?? "The evidence was not sent.");
        return;
      }
      router.refresh();
    });

  const fileId = `${ids}-file`;
  return (
    <div className="space-y-6">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Evidence">
        {EVIDENCE_TEXT_FIELDS.map((field) => {
          const id = `${ids}-${field}`;
          const error = form.formState.errors[field]?.message;
          return (
            <Field key={field} id={id} label={EVIDENCE_FIELD_LABELS[field]} error={error}>
              <textarea className="input w-full" rows={3} maxLength={EVIDENCE_TEXT_MAX} {...fieldAria(id, error, false)} {...form.register(field)} />
            </Field>
          );
        })}
        <FormAlert message={message} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-secondary" disabled={pending || submitting} aria-busy={pending}>
            {pending ? "Saving…" : "Save draft"}
          </button>
          <p role="status" className="text-sm text-slate-700" data-testid="evidence-status">
            {status}
          </p>
        </div>
      </form>

      <div className="space-y-2">
        <Field id={fileId} label="Add a file" help="PDF, PNG or JPEG, up to 5 MB. It is added to the draft at once." error={fileError}>
          <input
            ref={fileRef}
            type="file"
            accept={ACCEPTED_TYPES}
            disabled={uploading}
            className="block text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
            {...fieldAria(fileId, fileError, true)}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void upload(file);
            }}
          />
        </Field>
        <p role="status" className="text-sm text-slate-700" data-testid="file-status">
          {uploading ? "Uploading…" : fileStatus}
        </p>
        {files.length ? (
          <ul className="space-y-1 text-sm" aria-label="Files on the draft" data-testid="evidence-files">
            {files.map((file) => (
              <li key={file.id}>
                <a href={`/api/dashboard/files/${file.id}`} className="text-brand-700 underline wrap-anywhere" download>
                  {file.filename}
                </a>{" "}
                <span className="text-slate-600">({file.size})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No file on the draft yet.</p>
        )}
      </div>

      <div className="space-y-3 border-t border-slate-200 pt-4">
        {confirming ? (
          <div
            role="alertdialog"
            aria-labelledby={`${ids}-submit-title`}
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm"
            onKeyDown={(event) => {
              if (event.key === "Escape" && !submitting) {
                event.preventDefault();
                setConfirming(false);
              }
            }}
          >
            <p id={`${ids}-submit-title`} className="font-medium text-amber-950" data-testid="submit-confirmation">
              Submit the evidence for this dispute of {amountText}? The provider takes evidence until {deadlineText}. It is sent once and cannot be changed
              afterwards.
            </p>
            <div className="mt-3 flex flex-wrap gap-3">
              <button type="button" className="btn-primary" onClick={submit} disabled={submitting} aria-busy={submitting} autoFocus>
                {submitting ? "Submitting…" : "Submit evidence now"}
              </button>
              <button type="button" className="btn-secondary" onClick={() => setConfirming(false)} disabled={submitting}>
                Not yet
              </button>
            </div>
          </div>
        ) : (
          <button type="button" className="btn-primary" onClick={() => setConfirming(true)} disabled={pending}>
            Submit evidence
          </button>
        )}
        <p role="alert" className="text-sm text-red-700" data-testid="submit-error">
          {submitError}
        </p>
      </div>
    </div>
  );
}
