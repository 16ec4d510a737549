"use client";

import { useState, useTransition } from "react";
import { notify, type ToastAction } from "@/components/feedback";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { applyActionErrors, useZodForm } from "@/components/forms/use-zod-form";
import { sendComposedInvoiceAction, type ComposerSendResult } from "@/lib/actions/invoice-composer";
import type { Role } from "@/lib/db/schema";
import { placeApiErrors } from "@/lib/composer/api-errors";
import { templateConnection, type ComposerConnection } from "@/lib/composer/connections";
import { curlCommand } from "@/lib/composer/curl";
import { buildEnvelope, envelopeText } from "@/lib/composer/envelope";
import { initialValues, valuesFromTemplate, type ComposerValues } from "@/lib/composer/form-values";
import { newReferenceId } from "@/lib/composer/reference-id";
import { ENVELOPE_FIELD } from "@/lib/composer/pointers";
import type { InvoiceTemplate } from "@/lib/composer/templates";
import { AttributesSection } from "./attributes-section";
import { ConnectionSection } from "./connection-section";
import { CustomerSection } from "./customer-section";
import { errorAt } from "./fields";
import { OptionsSection } from "./options-section";
import { RequestPreview } from "./request-preview";
import { SendResult } from "./send-result";
import { TemplatePicker, type TemplateNotice } from "./template-picker";

/** The hosted page's path on this server, from the invoice's hpp_url (payouts have none). */
function hostedPath(body: unknown): string | undefined {
  const url = (body as { data?: { attributes?: { hpp_url?: unknown } } } | null)?.data?.attributes?.hpp_url;
  if (typeof url !== "string") return undefined;
  try {
    const { pathname } = new URL(url, "http://localhost");
    return pathname.startsWith("/pay/") ? pathname : undefined;
  } catch {
    return undefined;
  }
}

/** The toast after a send that produced an invoice, with where to go next. */
function sendConfirmation(status: number, invoiceId: string, body: unknown) {
  const actions: ToastAction[] = [{ label: "Open it", href: `/invoices/${invoiceId}` }];
  const hosted = hostedPath(body);
  if (hosted) actions.push({ label: "Open its hosted page", href: hosted });
  const message =
    status === 201
      ? `Invoice ${invoiceId} created. A new reference_id is filled in for the next send.`
      : `Invoice ${invoiceId} already existed with this reference_id and body (replay). A new reference_id is filled in for the next send.`;
  return { message, actions };
}

/**
 * The invoice composer: a form over every attribute of spec 2.2-2.4, validated in the
 * browser by the API's own `validateInvoice`, with the body, curl and resolved customer beside it.
 * Sending posts the very body shown to the invoice API over HTTP (server action) and maps the
 * API's errors back onto the inputs by their pointers.
 */
export function InvoiceComposer({
  connections,
  commerceAccount,
  role,
  apiBaseUrl,
  initialReferenceId,
  pinLive = false,
}: {
  connections: ComposerConnection[];
  commerceAccount: string;
  role: Role;
  apiBaseUrl: string;
  initialReferenceId: string;
  /** The merchant allows pinning live invoices, so a live invoice is sent to the chosen connection too. */
  pinLive?: boolean;
}) {
  const form = useZodForm(() => import("@/lib/composer/schema").then((m) => m.composerFormSchema), { defaultValues: initialValues({ commerceAccount, referenceId: initialReferenceId }) });
  const values = form.watch();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const [result, setResult] = useState<ComposerSendResult & { referenceRenewed?: boolean }>();
  const [notice, setNotice] = useState<TemplateNotice>();

  const { envelope } = buildEnvelope(values, { pinLive });
  const body = envelopeText(envelope);
  const connection = connections.find((c) => c.id === values.connection_id);

  const applyTemplate = (template: InvoiceTemplate) => {
    const match = templateConnection(connections, template);
    const next = valuesFromTemplate(template, { commerceAccount, referenceId: newReferenceId(), connectionId: match?.id ?? "" });
    form.reset(role === "owner" ? next : { ...next, test_mode: true });
    setNotice({ template, connectionLabel: match?.label });
    setResult(undefined);
    setMessage(undefined);
  };

  const onSubmit = form.handleSubmit((submitted: ComposerValues) =>
    startTransition(async () => {
      setMessage(undefined);
      setResult(undefined);
      const text = envelopeText(buildEnvelope(submitted, { pinLive }).envelope);
      const sent = await sendComposedInvoiceAction({ direction: submitted.direction, body: text });
      if (!sent.ok) return setMessage(applyActionErrors(form, sent));
      if (sent.data.invoiceId) {
        // A second send must be a new invoice, not a replay by accident: a fresh reference_id.
        form.setValue("reference_id", newReferenceId(), { shouldDirty: true, shouldValidate: true });
        setResult({ ...sent.data, referenceRenewed: true });
        notify(sendConfirmation(sent.data.status, sent.data.invoiceId, sent.data.body));
        return;
      }
      setResult(sent.data);
      setMessage(applyActionErrors(form, placeApiErrors(sent.data.status, sent.data.body)));
    }),
  );

  const alert = message ?? errorAt(form, ENVELOPE_FIELD);
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div className="min-w-0 space-y-6">
        <TemplatePicker onApply={applyTemplate} notice={notice} role={role} />
        <form method="post" onSubmit={onSubmit} noValidate className="space-y-6" aria-label="Compose invoice">
          <ConnectionSection form={form} values={values} connections={connections} role={role} pinLive={pinLive} />
          <AttributesSection form={form} values={values} role={role} connection={connection} />
          <OptionsSection form={form} values={values} />
          <CustomerSection form={form} values={values} />
          <div className="space-y-3">
            <FormAlert message={alert} />
            <SubmitButton pending={pending} pendingLabel="Sending…">
              Send invoice
            </SubmitButton>
          </div>
        </form>
      </div>
      {/* The answer sits beside the form at wide widths (above the preview), not below eight sections. */}
      <div className="min-w-0 space-y-6 xl:sticky xl:top-4 xl:max-h-[calc(100vh-2rem)] xl:self-start xl:overflow-y-auto">
        {result ? <SendResult result={result} connections={connections} referenceRenewed={result.referenceRenewed ?? false} /> : null}
        <aside aria-label="Request preview" className="min-w-0">
          <RequestPreview
            direction={values.direction}
            body={body}
            data={envelope.data}
            curl={curlCommand(apiBaseUrl, values.direction, body)}
            connection={connection}
          />
        </aside>
      </div>
    </div>
  );
}
