"use client";

import { Field, fieldAria } from "@/components/forms/field";
import { optionsFor, type OptionName } from "@/lib/composer/envelope";
import { examplesSending, joinNames, providersSendingOption } from "@/lib/composer/provider-notes";
import type { ComposerValues } from "@/lib/composer/form-values";
import { CheckboxField, errorAt, fieldId, Section, TextField, type ComposerForm } from "./fields";

const OPTION_HELP: Readonly<Record<Exclude<OptionName, "attempts_limit">, () => string>> = {
  allow_partially: () => "Accept a lower processed amount.",
  split_mode: () => "Allow the payout to be split into several parts.",
  auto_process: () => "Process without a manual confirmation.",
  bypass_hpp: () => `Skip the hosted payment page where ${joinNames(providersSendingOption("bypass_hpp"))} allows it.`,
  send_operation_context_on_return: () => "Add the operation context to the customer's return URL.",
};

/** Spec 2.4 options that apply to the type and provider, then the type's own attributes (2.2, 4.2). */
export function OptionsSection({ form, values }: { form: ComposerForm; values: ComposerValues }) {
  const options = optionsFor(values.direction, values.provider);
  return (
    <>
      <Section title="Options" description="The options that apply to this invoice type and provider.">
        <div className="grid gap-3 sm:grid-cols-2">
          {options.map((name) =>
            name === "attempts_limit" ? (
              <TextField
                key={name}
                form={form}
                name="options.attempts_limit"
                label="attempts_limit"
                inputMode="numeric"
                help="Attempts before the payout is final; blank sends none (the API then uses 5)."
              />
            ) : (
              <CheckboxField key={name} form={form} name={`options.${name}`} label={<code>{name}</code>} help={OPTION_HELP[name]()} />
            ),
          )}
        </div>
      </Section>
      {values.direction === "payout" ? (
        <Section title="Destination">
          <TextField
            form={form}
            name="card_number"
            label="Card number (fields.card_number)"
            required
            inputMode="numeric"
            autoComplete="off"
            help="A full card number, or masked: the first six and last four digits with * between. Only the masked number is stored and returned."
          />
        </Section>
      ) : (
        <Section title="Gateway and service fields">
          {values.payment_source === "saved_card" ? (
            <p className="text-sm text-slate-600">The card is already saved: nothing to tokenize.</p>
          ) : (
            <CheckboxField
              form={form}
              name="send_tokenize"
              label={
                <>
                  Send <code>gateway_options.cardgate.tokenize</code>
                </>
              }
              help={`The examples ${joinNames(examplesSending("gateway_options.cardgate.tokenize"))} send it as an empty string.`}
            />
          )}
          {values.send_tokenize && values.payment_source !== "saved_card" ? (
            <TextField form={form} name="tokenize" label="tokenize value" help="Leave empty as in the examples." />
          ) : null}
          <ServiceFields form={form} />
        </Section>
      )}
    </>
  );
}

function ServiceFields({ form }: { form: ComposerForm }) {
  const id = fieldId("service_fields");
  const error = errorAt(form, "service_fields");
  return (
    <Field
      id={id}
      label="service_fields (JSON array)"
      error={error}
      help={`A JSON array, [] as in the examples ${joinNames(examplesSending("service_fields"))}. Leave blank to send none.`}
    >
      <textarea className="input font-mono" rows={3} spellCheck={false} {...fieldAria(id, error, true)} {...form.register("service_fields")} />
    </Field>
  );
}
