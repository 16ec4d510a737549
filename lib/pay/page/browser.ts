import type { CardChecks, CardFieldErrors } from "@/lib/pay/card-checks";

/**
 * The hosted page's only script, run in the customer's browser. Its source text is what is sent
 * (assets.ts), so it must stay self-contained: it uses only its argument (the card checks and
 * formatters, card-checks.ts) and the browser's own APIs, never anything imported.
 *
 * It formats the fields as the customer types, fills a test card, checks the form on submit
 * (the server checks again), sends it and shows the answer the server rendered, and, while a
 * payment is being confirmed, reloads the page once the invoice has settled. Listeners sit on
 * the document, so the part of the page the server renders anew after a payment needs no wiring.
 */
export function hostedPaymentScript(checks: CardChecks): void {
  const FIELDS = ["number", "expiry", "cvc", "holder"] as const;
  /** How often the page asks whether a payment being confirmed is settled (a read: the provider is not asked). */
  const POLL_MS = 4000;
  const NETWORK_ALERT = "The payment could not be sent. Check your connection and try again.";
  let pending = false;

  const root = () => document.getElementById("hosted-payment");
  const form = () => document.querySelector<HTMLFormElement>("form[data-testid=card-form]");
  const fieldInput = (name: string) => form()?.querySelector<HTMLInputElement>(`input[name="${name}"]`) ?? null;
  const invoiceId = () => root()?.dataset.invoice ?? "";

  function setText(selector: string, text: string | undefined) {
    const element = document.querySelector<HTMLElement>(selector);
    if (!element) return;
    element.textContent = text ?? "";
    element.hidden = !text;
  }

  function showErrors(errors: CardFieldErrors) {
    for (const name of FIELDS) {
      const input = fieldInput(name);
      if (!input) continue;
      const message = errors[name];
      const error = document.getElementById(`pay-${name}-error`);
      if (error) error.textContent = message ?? "";
      if (message) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
    // A keyboard or screen reader user lands on the first field that is wrong.
    const first = FIELDS.find((name) => errors[name] && fieldInput(name));
    if (first) fieldInput(first)?.focus();
  }

  function setPending(on: boolean) {
    pending = on;
    const button = form()?.querySelector<HTMLButtonElement>("button[type=submit]");
    if (!button) return;
    button.disabled = on;
    button.setAttribute("aria-busy", String(on));
    const spinner = button.querySelector<HTMLElement>("[data-spinner]");
    const label = button.querySelector<HTMLElement>("[data-label]");
    if (spinner) spinner.hidden = !on;
    if (label) label.textContent = on ? (button.dataset.pendingLabel ?? "") : (button.dataset.label ?? "");
    for (const card of document.querySelectorAll<HTMLButtonElement>("[data-test-card]")) card.disabled = on;
  }

  type Answer =
    { ok: false; fieldErrors: CardFieldErrors; message?: string } | { ok: true; kind: "redirect"; url: string } | { ok: true; kind: "result"; html: string };

  async function pay() {
    const values = { number: "", expiry: "", cvc: "", holder: "" };
    for (const name of FIELDS) values[name] = fieldInput(name)?.value ?? "";
    setText("[data-testid=pay-alert]", undefined);
    setText("[data-picked]", undefined);
    const refused = checks.cardFieldErrors(values, { takesCvc: Boolean(fieldInput("cvc")) });
    showErrors(refused);
    if (Object.keys(refused).length) return;
    setPending(true);
    let answer: Answer;
    try {
      const response = await fetch(`/pay/${encodeURIComponent(invoiceId())}/pay`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(values),
        cache: "no-store",
      });
      answer = (await response.json()) as Answer;
    } catch {
      setPending(false);
      setText("[data-testid=pay-alert]", NETWORK_ALERT);
      return;
    }
    if (!answer.ok) {
      setPending(false);
      showErrors(answer.fieldErrors);
      setText("[data-testid=pay-alert]", answer.message);
      return;
    }
    if (answer.kind === "redirect") {
      window.location.assign(answer.url);
      return;
    }
    // The card is done with: the server's new rendering of the payment holds nothing of it.
    pending = false;
    const current = root();
    if (current) current.outerHTML = answer.html;
    document.getElementById("pay-status")?.focus();
    follow();
  }

  function pickTestCard(button: HTMLButtonElement) {
    const number = fieldInput("number");
    if (!number || pending) return;
    number.value = button.dataset.testCard ?? "";
    const expiry = fieldInput("expiry");
    if (expiry) expiry.value = checks.testCardExpiry();
    const cvc = fieldInput("cvc");
    if (cvc) cvc.value = "123";
    const holder = fieldInput("holder");
    if (holder && !holder.value) holder.value = "Test Cardholder";
    showErrors({});
    setText("[data-picked]", `Test card ${button.dataset.label ?? ""} filled in.`);
  }

  let polling: ReturnType<typeof setInterval> | undefined;
  /** While the payment is being confirmed, the page follows the invoice and shows the result once it is final. */
  function follow() {
    if (polling || root()?.dataset.confirming !== "true") return;
    polling = setInterval(async () => {
      try {
        const response = await fetch(`/pay/${encodeURIComponent(invoiceId())}/status`, { cache: "no-store" });
        if (!response.ok) return;
        const body = (await response.json()) as { invoice: { outcome: { kind: string } } };
        if (body.invoice.outcome.kind !== "in_progress") {
          clearInterval(polling);
          window.location.reload();
        }
      } catch {
        // Offline for a moment: the next tick tries again.
      }
    }, POLL_MS);
  }

  document.addEventListener("input", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.closest("form[data-testid=card-form]")) return;
    if (input.name === "number") input.value = checks.formatCardNumberInput(input.value);
    else if (input.name === "expiry") input.value = checks.formatExpiryInput(input.value);
    else if (input.name === "cvc") input.value = input.value.replace(/\D/g, "");
  });
  document.addEventListener("submit", (event) => {
    if (!(event.target instanceof HTMLFormElement) || event.target.dataset.testid !== "card-form") return;
    event.preventDefault();
    if (!pending) void pay();
  });
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>("[data-test-card]") : null;
    if (button) pickTestCard(button);
  });
  follow();
}
