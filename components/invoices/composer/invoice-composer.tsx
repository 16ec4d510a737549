"use client";

import { useEffect, useRef, useState, useTransition, type KeyboardEvent } from "react";
import { notify, type ToastAction } from "@/components/feedback";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { applyActionErrors, useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedChanges } from "@/components/forms/use-unsaved-changes";
import { sendComposedInvoiceAction, type ComposerSendResult } from "@/lib/actions/invoice-composer";
import type { Role } from "@/lib/db/schema";
import { placeApiErrors } from "@/lib/composer/api-errors";
import { authorizeOffered, routableServices, routeFor, templateConnection, type ComposerConnection, type ComposerRoutes } from "@/lib/composer/connections";
import { curlCommand } from "@/lib/composer/curl";
import { buildEnvelope, envelopeText, pinsConnection } from "@/lib/composer/envelope";
import { initialValues, valuesFromTemplate, type ComposerValues } from "@/lib/composer/form-values";
import { newReferenceId } from "@/lib/composer/reference-id";
import { ENVELOPE_FIELD } from "@/lib/composer/pointers";
import { maskCardNumber } from "@/lib/cards/card-number";
import type { InvoiceTemplate } from "@/lib/composer/templates";
import { AttributesSection } from "./attributes-section";
import { ConnectionSection } from "./connection-section";
import { CustomerSection } from "./customer-section";
import { errorAt } from "./fields";
import { OptionsSection } from "./options-section";
import { PaymentSourceSection } from "./payment-source-section";
import { RequestPreview } from "./request-preview";
import { SendResult } from "./send-result";
import { TemplatePicker, type TemplateNotice } from "./template-picker";
import { canInMode } from "@/lib/identity/permissions";

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

/** A blank payment routed automatically, with the first service a connection offers already chosen. */
function firstValues(input: {
  connections: readonly ComposerConnection[];
  routes: ComposerRoutes;
  commerceAccount: string;
  referenceId: string;
}): ComposerValues {
  const values = initialValues({ commerceAccount: input.commerceAccount, referenceId: input.referenceId });
  const service = routableServices(input.connections, "payment")[0];
  if (!service) return values;
  const first = routeFor(input.routes, input.connections, service.code, values.test_mode)[0];
  return { ...values, service: service.code, currency: service.currency, provider: first?.provider ?? "" };
}

/** A payout with auto_process goes to the provider as soon as it is created: what the confirmation says first. */
function autoPayoutConfirmationText(values: ComposerValues, first: ComposerConnection | undefined, pinned: boolean): string {
  const through = first ? `through ${first.label} (${first.providerName}, ${first.mode} mode)` : "through the first connection of your routing order";
  const after = pinned
    ? "It is pinned to that connection, so it goes nowhere else."
    : "If that connection fails softly, it moves on to the next one in your routing order.";
  return `Send ${values.amount.trim()} ${values.currency} to card ${maskCardNumber(values.card_number)} ${through}? auto_process is on, so the payout is sent as soon as the invoice is created. ${after}`;
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
 * It routes as the API does by default (routing order, then the cascade); pinning a connection is
 * a choice the person makes.
 * Sending posts the very body shown to the invoice API over HTTP (server action) and maps the
 * API's errors back onto the inputs by their pointers.
 */
export function InvoiceComposer({
  connections,
  routes = {},
  commerceAccount,
  role,
  apiBaseUrl,
  initialReferenceId,
  pinLive = false,
}: {
  connections: ComposerConnection[];
  /** Enabled connections in routing order per `service:mode`, for "Route automatically". */
  routes?: ComposerRoutes;
  commerceAccount: string;
  role: Role;
  apiBaseUrl: string;
  initialReferenceId: string;
  /** The merchant allows pinning live invoices, so a live invoice is sent to the chosen connection too. */
  pinLive?: boolean;
}) {
  const form = useZodForm(() => import("@/lib/composer/schema").then((m) => m.composerFormSchema), {
    defaultValues: firstValues({ connections, routes, commerceAccount, referenceId: initialReferenceId }),
  });
  const values = form.watch();
  useUnsavedChanges(form.formState.isDirty);
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const [result, setResult] = useState<ComposerSendResult & { referenceRenewed?: boolean }>();
  const [notice, setNotice] = useState<TemplateNotice>();

  const { envelope } = buildEnvelope(values, { pinLive });
  const body = envelopeText(envelope);
  const route = routeFor(routes, connections, values.service, values.test_mode);
  // The connection the invoice goes to first: the pinned one, or the first of the routing order.
  const connection = pinsConnection(values, { pinLive }) ? connections.find((c) => c.id === values.connection_id) : route[0];
  // "Authorize only" is offered where a connection the invoice may go to belongs to a provider that authorizes (lib/providers/capabilities.ts).
  const reachable = pinsConnection(values, { pinLive }) ? (connection ? [connection] : []) : route;
  const offersAuthorize = authorizeOffered(reachable);

  const applyTemplate = (template: InvoiceTemplate) => {
    const match = templateConnection(connections, template);
    const next = valuesFromTemplate(template, { commerceAccount, referenceId: newReferenceId(), connectionId: match?.id ?? "" });
    form.reset(canInMode(role, "invoices.compose", "live") ? next : { ...next, test_mode: true });
    const routed = routeFor(routes, connections, template.service, true)[0];
    setNotice({ template, connectionLabel: routed?.label });
    setResult(undefined);
    setMessage(undefined);
  };

  // Money leaves at once for a payout with auto_process: such a send asks first (Confirm, or Cancel / Escape).
  const [confirming, setConfirming] = useState<ComposerValues>();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const submitRef = useRef<HTMLDivElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) {
      asked.current = true;
      confirmRef.current?.focus();
    } else if (asked.current) {
      asked.current = false;
      submitRef.current?.querySelector("button")?.focus();
    }
  }, [confirming]);

  const onSubmit = form.handleSubmit((submitted: ComposerValues) => {
    if (submitted.direction === "payout" && submitted.options.auto_process) setConfirming(submitted);
    else send(submitted);
  });

  const send = (submitted: ComposerValues) =>
    startTransition(async () => {
      setMessage(undefined);
      setResult(undefined);
      const text = envelopeText(buildEnvelope(submitted, { pinLive }).envelope);
      const sent = await sendComposedInvoiceAction({ direction: submitted.direction, body: text });
      if (!sent.ok) return setMessage(applyActionErrors(form, sent));
      if (sent.data.invoiceId) {
        // A second send must be a new invoice, not a replay by accident: a fresh reference_id. What
        // was sent is the new baseline, so leaving the page now asks nothing.
        form.reset({ ...form.getValues(), reference_id: newReferenceId() });
        setResult({ ...sent.data, referenceRenewed: true });
        notify(sendConfirmation(sent.data.status, sent.data.invoiceId, sent.data.body));
        return;
      }
      setResult(sent.data);
      setMessage(applyActionErrors(form, placeApiErrors(sent.data.status, sent.data.body)));
    });

  // The confirmation states one body: changing the form meanwhile takes it away (send again to be asked anew).
  const asking = confirming && envelopeText(buildEnvelope(confirming, { pinLive }).envelope) === body ? confirming : undefined;

  const confirmSend = () => {
    const stated = asking;
    if (!stated) return;
    // Focus goes to the result (or the field in error) once the send is over, not back to the button.
    asked.current = false;
    setConfirming(undefined);
    send(stated);
  };
  const onConfirmKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      setConfirming(undefined);
    }
  };

  const alert = message ?? errorAt(form, ENVELOPE_FIELD);
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div className="min-w-0 space-y-6">
        <TemplatePicker onApply={applyTemplate} notice={notice} role={role} />
        <form method="post" onSubmit={onSubmit} noValidate className="space-y-6" aria-label="Compose invoice">
          <ConnectionSection form={form} values={values} connections={connections} routes={routes} role={role} pinLive={pinLive} />
          <AttributesSection
            form={form}
            values={values}
            role={role}
            connection={values.routing === "pin" ? connection : undefined}
            authorizeOffered={offersAuthorize}
          />
          {values.direction === "payment" ? <PaymentSourceSection form={form} values={values} /> : null}
          <OptionsSection form={form} values={values} />
          <CustomerSection form={form} values={values} />
          <div className="space-y-3">
            <FormAlert message={alert} />
            {asking ? (
              <div
                role="alertdialog"
                aria-labelledby="composer-confirm-title"
                aria-describedby="composer-confirm-text"
                className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm"
                onKeyDown={onConfirmKey}
              >
                <p id="composer-confirm-title" className="font-semibold text-amber-950">
                  Confirm the payout
                </p>
                <p id="composer-confirm-text" className="mt-1 text-amber-950" data-testid="composer-payout-confirmation">
                  {pinsConnection(asking, { pinLive })
                    ? autoPayoutConfirmationText(
                        asking,
                        connections.find((c) => c.id === asking.connection_id),
                        true,
                      )
                    : autoPayoutConfirmationText(asking, routeFor(routes, connections, asking.service, asking.test_mode)[0], false)}
                </p>
                <div className="mt-3 flex flex-wrap gap-3">
                  <button ref={confirmRef} type="button" className="btn-primary" onClick={confirmSend}>
                    Confirm payout
                  </button>
                  <button type="button" className="btn-secondary" onClick={() => setConfirming(undefined)}>
                    Cancel
                  </button>
                </div>
              </div>
            ) : (
              <div ref={submitRef}>
                <SubmitButton pending={pending} pendingLabel="Sending…">
                  Send invoice
                </SubmitButton>
              </div>
            )}
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
