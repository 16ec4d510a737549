"use client";

import { useEffect, useState, useTransition } from "react";
import { listChargeableCardsAction, type ChargeableCard } from "@/lib/actions/payment-methods";
import type { ComposerValues } from "@/lib/composer/form-values";
import { errorAt, fieldId, Section, TextField, type ComposerForm } from "./fields";

type Lookup = { customer: string; testMode: boolean; cards: ChargeableCard[] };

/**
 * How the payment is paid: on the hosted page (the customer types the card there), or by
 * charging one of a customer's saved cards at creation. For the latter the person names the
 * customer, the usable cards of that reference in the invoice's mode are listed, and one is chosen:
 * the body then carries data.relationships.payment_method, and no card is typed anywhere.
 */
export function PaymentSourceSection({ form, values }: { form: ComposerForm; values: ComposerValues }) {
  const [lookup, setLookup] = useState<Lookup>();
  const [message, setMessage] = useState<string>();
  const [pending, startTransition] = useTransition();
  const saved = values.payment_source === "saved_card";
  const sourceId = fieldId("payment_source");
  const cardsId = fieldId("payment_method_id");
  const cardError = errorAt(form, "payment_method_id");
  const sourceError = errorAt(form, "payment_source");
  // A list for another customer or mode than the form's now is not offered.
  const current = lookup && lookup.customer === values.saved_card_customer.trim() && lookup.testMode === values.test_mode ? lookup : undefined;

  const stale = saved && !current && values.payment_method_id !== "";
  useEffect(() => {
    if (stale) form.setValue("payment_method_id", "", { shouldDirty: true });
  }, [stale, form]);

  const find = () =>
    startTransition(async () => {
      setMessage(undefined);
      const customer = values.saved_card_customer.trim();
      if (!customer) {
        form.setError("saved_card_customer", { message: "Enter the customer's reference_id" }, { shouldFocus: true });
        return;
      }
      const result = await listChargeableCardsAction({ customerReference: customer, testMode: values.test_mode });
      if (!result.ok) {
        setMessage(result.fieldErrors.customerReference ?? result.message ?? "The saved cards could not be read.");
        return;
      }
      setLookup({ customer, testMode: values.test_mode, cards: result.data.cards });
      const first = result.data.cards[0];
      form.setValue("payment_method_id", first?.id ?? "", { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
      setMessage(
        result.data.cards.length === 0
          ? `No usable saved card of ${customer} in ${values.test_mode ? "test" : "live"} mode.`
          : `${result.data.cards.length} usable saved ${result.data.cards.length === 1 ? "card" : "cards"} found.`,
      );
    });

  return (
    <Section title="How the customer pays">
      <div role="radiogroup" aria-labelledby={`${sourceId}-label`} aria-describedby={`${sourceId}-error`} className="space-y-2">
        <p id={`${sourceId}-label`} className="label">
          Payment source
        </p>
        <label className="flex items-start gap-2 text-sm">
          <input type="radio" value="hosted" className="mt-0.5 size-4" {...form.register("payment_source")} />
          <span>On the hosted payment page: the customer types the card there.</span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="radio" value="saved_card" className="mt-0.5 size-4" {...form.register("payment_source")} />
          <span>Charge a saved card: charged at once, without the hosted page (only the provider that holds the card is tried).</span>
        </label>
        <p id={`${sourceId}-error`} className="field-error" aria-live="polite">
          {sourceError}
        </p>
      </div>
      {saved ? (
        <div className="space-y-3">
          <TextField
            form={form}
            name="saved_card_customer"
            label="Customer reference_id"
            required
            help="The reference the card was saved under; the invoice is filed under it too."
            after={
              <button type="button" className="btn-secondary shrink-0" onClick={find} disabled={pending} aria-busy={pending}>
                {pending ? "Finding…" : "Find saved cards"}
              </button>
            }
          />
          <p role="status" aria-live="polite" className="text-sm text-slate-700" data-testid="saved-card-lookup">
            {message}
          </p>
          {current && current.cards.length > 0 ? (
            <fieldset aria-describedby={`${cardsId}-error`} className="space-y-2">
              <legend className="label">Saved card</legend>
              {current.cards.map((card) => (
                <label key={card.id} className="flex items-start gap-2 text-sm" data-testid="saved-card-choice">
                  <input type="radio" value={card.id} className="mt-0.5 size-4" {...form.register("payment_method_id")} />
                  <span>
                    <span className="font-medium">
                      {card.brand ?? "Card"} <span className="font-mono">•••• {card.lastFour}</span>
                    </span>{" "}
                    <span className="text-slate-600">
                      expires {card.expiry} · {card.providerName}
                      {card.connectionLabel ? ` · ${card.connectionLabel}` : ""}
                    </span>
                  </span>
                </label>
              ))}
            </fieldset>
          ) : null}
          <p id={`${cardsId}-error`} className="field-error" aria-live="polite">
            {cardError}
          </p>
        </div>
      ) : null}
    </Section>
  );
}
