"use client";

import { Link } from "@/components/link";
import { useEffect, useRef, useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { notify } from "@/components/feedback";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { createPaymentLinkAction } from "@/lib/actions/payment-link";
import type { PaymentLink } from "@/lib/payment-links/schema";

/**
 * The composer's Payment link mode: four plain fields (and Test mode), no API words. Sending makes
 * the invoice, e-mails its hosted page to the customer and shows the link, its QR code and a copy
 * button, so a person can also hand it over in person or in a chat.
 */
export function PaymentLinkForm({ currencies, canGoLive }: { currencies: readonly string[]; canGoLive: boolean }) {
  const form = useZodForm(() => import("@/lib/payment-links/schema").then((m) => m.paymentLinkSchema), {
    defaultValues: { amount: "", currency: currencies[0] ?? "", description: "", email: "", test_mode: true },
  });
  useUnsavedForm(form);
  const [link, setLink] = useState<PaymentLink>();
  const { onSubmit, pending, message } = useActionForm(form, createPaymentLinkAction, {
    onSuccess: (created, values) => {
      form.reset({ ...values, amount: "", description: "", email: "" });
      setLink(created);
      notify({ message: created.emailed ? `Payment link e-mailed to ${created.email}.` : "Payment link created; the e-mail could not be sent." });
    },
  });
  const errors = form.formState.errors;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <form onSubmit={onSubmit} noValidate className="card min-w-0 space-y-4" aria-label="Payment link">
        <p className="text-sm text-slate-700">
          Your customer gets an e-mail with a link to a secure payment page. You also get the link and a QR code to share yourself.
        </p>
        <FormAlert message={message} />
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_8rem]">
          <Field id="link-amount" label="Amount" error={errors.amount?.message} required help="For example 25.00">
            <input
              className="input tabular-nums"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              {...fieldAria("link-amount", errors.amount?.message, true)}
              {...form.register("amount")}
            />
          </Field>
          <Field id="link-currency" label="Currency" error={errors.currency?.message} required>
            <select className="input" {...fieldAria("link-currency", errors.currency?.message, false)} {...form.register("currency")}>
              {currencies.map((currency) => (
                <option key={currency} value={currency}>
                  {currency}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field
          id="link-description"
          label="What it is for"
          error={errors.description?.message}
          required
          help="Shown to your customer, e.g. Order 1042: two blue mugs"
        >
          <input
            className="input"
            type="text"
            autoComplete="off"
            {...fieldAria("link-description", errors.description?.message, true)}
            {...form.register("description")}
          />
        </Field>
        <Field id="link-email" label="Customer's e-mail" error={errors.email?.message} required help="The link is sent here.">
          <input className="input" type="email" autoComplete="off" {...fieldAria("link-email", errors.email?.message, true)} {...form.register("email")} />
        </Field>
        <div>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" disabled={!canGoLive} {...form.register("test_mode")} />
            Test mode: no real money moves
          </label>
          {canGoLive ? null : <p className="help">As a support member you can send test payment links only.</p>}
          <p className="field-error" aria-live="polite">
            {errors.test_mode?.message}
          </p>
        </div>
        <SubmitButton pending={pending} pendingLabel="Sending…">
          Send payment link
        </SubmitButton>
      </form>
      {link ? <PaymentLinkResult link={link} /> : null}
    </div>
  );
}

function PaymentLinkResult({ link }: { link: PaymentLink }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [link]);
  const qrSource = `data:image/svg+xml;base64,${btoa(link.qrSvg)}`;
  return (
    <section className="card min-w-0 space-y-3" aria-labelledby="payment-link-heading" data-testid="payment-link-result">
      <h2 id="payment-link-heading" ref={heading} tabIndex={-1} className="text-base font-semibold">
        Payment link for {link.amount} {link.currency}
        {link.testMode ? <span className="badge ml-2 bg-amber-100 text-amber-900">Test</span> : null}
      </h2>
      <p className="text-sm" data-testid="payment-link-mail">
        {link.emailed ? `E-mailed to ${link.email}.` : `The e-mail to ${link.email} could not be sent. Copy the link and send it another way.`}
      </p>
      <p className="flex items-start gap-1">
        <a href={link.url} className="min-w-0 font-mono text-xs break-all text-brand-700 underline" data-testid="payment-link-url">
          {link.url}
        </a>
        <CopyButton value={link.url} label="Copy payment link" className="-mt-1" />
      </p>
      {/* eslint-disable-next-line @next/next/no-img-element -- an SVG drawn on the server for this one link */}
      <img
        src={qrSource}
        alt={`QR code of the payment link for ${link.amount} ${link.currency}`}
        width={192}
        height={192}
        className="size-48 rounded-md border border-slate-200 bg-white"
        data-testid="payment-link-qr"
      />
      <p>
        <Link href={`/invoices/${link.invoiceId}`} className="btn-secondary">
          Open the invoice
        </Link>
      </p>
    </section>
  );
}
