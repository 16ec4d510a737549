import "server-only";
import { formatCardNumber, TEST_CARDS, WINNING_EVIDENCE_PHRASE } from "@/lib/sandbox/cards";
import { TEST_REFUNDS } from "@/lib/sandbox/refund-triggers";
import type { CardFieldErrors } from "@/lib/pay/card-checks";
import type { HostedInvoice } from "@/lib/pay/hosted-invoice";
import { flag, html, Html } from "./html";

/**
 * The public hosted payment page (`/pay/{id}`) as server-rendered HTML with one small script of its
 * own (browser.ts) instead of the React runtime: customers open it on phones, and the framework
 * alone weighs twice the page's budget. Every class it uses is in CLASSES, from which
 * its stylesheet is built (stylesheet.ts); the markup keeps the labels, roles and test ids the
 * React page had.
 */
export const CLASSES = {
  body: "min-h-screen",
  main: "mx-auto flex min-h-screen w-full max-w-md flex-col px-4 py-8 sm:py-12",
  card: "card",
  footer: "mt-4 text-center text-xs text-slate-600",
  stack: "space-y-5",
  payee: "text-sm text-slate-600",
  amount: "mt-1 text-3xl font-semibold tabular-nums",
  currency: "text-xl text-slate-700",
  testBadge: "badge mt-2 bg-amber-100 text-amber-900",
  status: "space-y-3 outline-none",
  alert: "rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800",
  srOnly: "sr-only",
  result: "rounded-md border p-3",
  good: "border-green-200 bg-green-50 text-green-900",
  bad: "border-red-200 bg-red-50 text-red-900",
  wait: "border-slate-200 bg-slate-50 text-slate-800",
  resultTitle: "font-semibold",
  resultBody: "mt-1 text-sm",
  resultLink: "font-medium underline",
  form: "space-y-4",
  label: "label",
  hint: "help mt-0",
  control: "mt-1",
  input: "input",
  mono: "font-mono",
  fieldError: "field-error",
  pair: "grid grid-cols-2 gap-3",
  submit: "btn-primary w-full py-3 text-base",
  spinner: "size-4 animate-spin rounded-full border-2 border-white/40 border-t-white",
  back: "text-center text-sm",
  backLink: "font-medium text-brand-700 underline",
  testCards: "rounded-lg border border-amber-300 bg-amber-50 p-4",
  testCardsTitle: "text-sm font-semibold text-amber-900",
  testCardsNote: "mt-1 text-xs text-amber-900",
  testCardList: "mt-3 space-y-2",
  testCard: "w-full rounded-md border border-amber-200 bg-white px-3 py-2 text-left text-sm hover:bg-amber-100 disabled:opacity-60",
  testCardNumber: "block font-mono text-slate-900",
  testCardOutcome: "block text-xs text-slate-700",
  testCardLabel: "font-medium",
  heading: "text-lg font-semibold",
  text: "mt-1 text-sm text-slate-600",
  retry: "btn-primary mt-4",
} as const;

const C = CLASSES;

/** Where the page's stylesheet and script are, and this response's CSP nonce for the script. */
export type PageAssets = { stylesheet: string; script: string; nonce: string };

/** What a refused Pay leaves on the page: a message per field, a message for the whole form, the cardholder name kept. */
export type FormState = { errors: CardFieldErrors; alert?: string; holder?: string };

function document(title: string, assets: PageAssets, body: Html, script: boolean): Html {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Payment Orchestrator</title><meta name="robots" content="noindex, nofollow"><meta name="description" content="Pay with your card."><link rel="icon" href="/logo.svg" type="image/svg+xml"><link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48"><link rel="stylesheet" href="${assets.stylesheet}"></head>
<body class="${C.body}"><main class="${C.main}"><div class="${C.card}">${body}</div><p class="${C.footer}">Secure payment page · Payment Orchestrator</p></main>${
    script ? html`<script src="${assets.script}" nonce="${assets.nonce}" defer></script>` : null
  }</body></html>`;
}

/** The outcome in plain words, inside the page's live region so it is announced; nothing while the invoice is open. */
function renderResult(invoice: HostedInvoice): Html | null {
  const { outcome, amount, currency, merchantName, canPay } = invoice;
  const again = canPay ? " You can try again with another card." : "";
  const box = (tone: "good" | "bad" | "wait", title: string, body: Html | string) =>
    html`<div class="${C.result} ${C[tone]}" data-testid="pay-result" data-outcome="${outcome.kind}"><p class="${C.resultTitle}">${title}</p><p class="${C.resultBody}">${body}</p></div>`;
  switch (outcome.kind) {
    case "open":
      return null;
    case "paid":
      return box("good", "Payment received", `${amount} ${currency} was paid to ${merchantName}. Thank you.`);
    case "authorized":
      return box(
        "good",
        "Payment authorized",
        `${amount} ${currency} is reserved on your card for ${merchantName}. It is taken when ${merchantName} completes your order, or released if not. Nothing more to do here.`,
      );
    case "partly_paid":
      return box("good", "Partly paid", `${outcome.processedAmount} ${currency} of ${amount} ${currency} was paid to ${merchantName}.`);
    case "declined":
      return box("bad", "Payment declined", `${outcome.reason}${again}`);
    case "try_later":
      // A provider that failed softly took no money: with attempts left the form stays, and says so.
      return box("bad", "Please try again later", canPay ? `${outcome.reason} No payment was taken; you can try again.` : outcome.reason);
    case "in_progress":
      return box(
        "wait",
        "We are confirming your payment",
        invoice.threeDsUrl
          ? html`Your bank asks you to confirm this payment with your saved card. <a class="${C.resultLink}" href="${invoice.threeDsUrl}">Continue to 3-D Secure</a>`
          : html`This can take a few minutes; this page updates by itself. Please do not pay again. <a class="${C.resultLink}" href="/pay/${encodeURIComponent(invoice.id)}/return">Check the result now</a>`,
      );
    case "closed":
      return outcome.expired
        ? box("bad", "This payment link has expired", `It can no longer be paid. Ask ${merchantName} for a new link.`)
        : box("bad", "This invoice cannot be paid", outcome.reason);
  }
}

type FieldName = keyof CardFieldErrors;

/** A labelled field; its input (below) names its hint and error with aria-describedby. */
function field(name: FieldName, label: string, errors: CardFieldErrors, input: Html, hint?: string): Html {
  const id = `pay-${name}`;
  return html`<div><label for="${id}" class="${C.label}">${label}</label>${
    hint ? html`<p id="${id}-hint" class="${C.hint}">${hint}</p>` : null
  }<div class="${C.control}">${input}</div><p id="${id}-error" class="${C.fieldError}">${errors[name]}</p></div>`;
}

function input(name: FieldName, errors: CardFieldErrors, attributes: Html, hint?: boolean): Html {
  const id = `pay-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(" ");
  return html`<input id="${id}" name="${name}" aria-describedby="${describedBy}"${flag('aria-invalid="true"', Boolean(errors[name]))}${attributes}>`;
}

function cardForm(invoice: HostedInvoice, state: FormState): Html {
  const { errors } = state;
  return html`<form method="post" action="/pay/${encodeURIComponent(invoice.id)}/pay" novalidate class="${C.form}" data-testid="card-form" aria-label="Card payment">${[
    field(
      "number",
      "Card number",
      errors,
      input("number", errors, html` class="${C.input} ${C.mono}" inputmode="numeric" autocomplete="cc-number" placeholder="1234 5678 9012 3456"`),
    ),
    html`<div class="${C.pair}">${[
      field(
        "expiry",
        "Expiry date",
        errors,
        input("expiry", errors, html` class="${C.input}" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY"`, true),
        "MM/YY",
      ),
      invoice.takesCvc
        ? field(
            "cvc",
            "CVC",
            errors,
            input("cvc", errors, html` class="${C.input}" inputmode="numeric" autocomplete="cc-csc" maxlength="4"`, true),
            "3 or 4 digits",
          )
        : null,
    ]}</div>`,
    field("holder", "Cardholder name", errors, input("holder", errors, html` class="${C.input}" autocomplete="cc-name" value="${state.holder ?? ""}"`)),
    html`<div><button type="submit" class="${C.submit}" data-label="Pay" data-pending-label="Paying…"><span class="${C.spinner}" data-spinner aria-hidden="true" hidden></span><span data-label>Pay</span></button></div>`,
  ]}</form>`;
}

function testCards(): Html {
  return html`<section aria-labelledby="test-cards-heading" class="${C.testCards}"><h2 id="test-cards-heading" class="${C.testCardsTitle}">Test cards</h2><p class="${C.testCardsNote}">Choose one to fill in the form. Any future expiry date works; the CVC 000 is refused as wrong.</p><ul class="${C.testCardList}">${TEST_CARDS.map(
    (card) =>
      html`<li><button type="button" class="${C.testCard}" data-test-card="${formatCardNumber(card.number)}" data-label="${card.label}"><span class="${C.testCardNumber}">${formatCardNumber(card.number)}</span><span class="${C.testCardOutcome}"><span class="${C.testCardLabel}">${card.label}</span> · ${card.outcome}</span></button></li>`,
  )}</ul><p class="${C.testCardsNote}" data-testid="test-refunds">Test refunds, for the merchant after a test payment: the refund amount&#39;s cents decide. ${TEST_REFUNDS.map(
    (trigger) => `${trigger.cents === "any other" ? "Any other cents" : `.${trigger.cents}`}: ${trigger.label.toLowerCase()}.`,
  ).join(
    " ",
  )}</p><p class="${C.testCardsNote}" data-testid="test-disputes">Test disputes, for the merchant after a disputed card&#39;s payment: evidence with ${WINNING_EVIDENCE_PHRASE} in a text field wins, any other loses.</p></section>`;
}

/** The live region's content: the result, a message for the whole form, and what a test card did (both filled in by the script too). */
function renderStatus(invoice: HostedInvoice, alert?: string): Html {
  return html`${renderResult(invoice)}<p class="${C.alert}" data-testid="pay-alert"${flag("hidden", !alert)}>${alert}</p><p class="${C.srOnly}" data-picked hidden></p>`;
}

/** The payment itself: the announced result, the card form while the invoice may be paid, the way back, the test cards. */
export function renderPayment(invoice: HostedInvoice, state: FormState = { errors: {} }): string {
  return html`<div class="${C.stack}" id="hosted-payment" data-invoice="${invoice.id}" data-confirming="${String(invoice.outcome.kind === "in_progress")}"><div id="pay-status" tabindex="-1" role="status" aria-live="polite" class="${C.status}" data-testid="pay-status">${renderStatus(invoice, state.alert)}</div>${
    invoice.canPay ? cardForm(invoice, state) : null
  }${
    invoice.returnUrl
      ? html`<p class="${C.back}"><a href="${invoice.returnUrl}" class="${C.backLink}" data-testid="return-link">${invoice.canPay ? `Cancel and return to ${invoice.merchantName}` : `Return to ${invoice.merchantName}`}</a></p>`
      : null
  }${invoice.testMode && invoice.canPay ? testCards() : null}</div>`.text;
}

/** The page of a hosted invoice; `state` after a refused Pay sent without the script (a plain form post). */
export function renderHostedPage(invoice: HostedInvoice, assets: PageAssets, state: FormState = { errors: {} }): string {
  const body = html`<div class="${C.stack}"><header><p class="${C.payee}">Pay ${invoice.merchantName}</p><h1 class="${C.amount}" data-testid="pay-amount">${invoice.amount} <span class="${C.currency}">${invoice.currency}</span></h1>${
    invoice.description ? html`<p class="${C.payee}" data-testid="pay-description">${invoice.description}</p>` : null
  }${
    invoice.testMode ? html`<p class="${C.testBadge}" data-testid="test-mode">Test mode: no real money moves</p>` : null
  }</header>${new Html(renderPayment(invoice, state))}</div>`;
  return document("Payment", assets, body, true).text;
}

export function renderNotFoundPage(assets: PageAssets): string {
  const body = html`<div data-testid="pay-not-found"><h1 class="${C.heading}">Payment page not found</h1><p class="${C.text}">This link does not lead to a payment. Check that it was copied completely, or ask the merchant for a new one.</p></div>`;
  return document("Payment page not found", assets, body, false).text;
}

/** Something failed on our side: say so plainly, and promise nothing about the payment itself. */
export function renderFailurePage(assets: PageAssets, requestId: string, invoiceId: string): string {
  const body = html`<div role="alert"><h1 class="${C.heading}">This payment page could not be shown</h1><p class="${C.text}">Please try again in a moment. If it keeps failing, contact the merchant and quote <code>${requestId}</code>.</p><a class="${C.retry}" href="/pay/${encodeURIComponent(invoiceId)}">Try again</a></div>`;
  return document("Payment", assets, body, false).text;
}

/**
 * A plain form post that must go on to another site (a live provider's 3-D Secure page): the page's
 * policy lets a form send only to this origin (form-action 'self'), and browsers hold a form's
 * redirects to it too, so a 303 there would be blocked. The customer follows a link instead.
 */
export function renderContinuePage(assets: PageAssets, url: string): string {
  const body = html`<div data-testid="pay-continue"><h1 class="${C.heading}">Confirm the payment with your bank</h1><p class="${C.text}">Your bank asks you to confirm this payment on its own page.</p><a class="${C.retry}" href="${url}" data-testid="continue-link">Continue to your bank</a></div>`;
  return document("Payment", assets, body, false).text;
}
