"use client";

import Link from "next/link";
import { ModeBadge } from "@/components/connections/badges";
import { Field, fieldAria } from "@/components/forms/field";
import type { Role } from "@/lib/db/schema";
import { connectionPatch, groupByProvider, servicesOf, type ComposerConnection } from "@/lib/composer/connections";
import type { ComposerValues } from "@/lib/composer/form-values";
import { joinNames, providersOfferingPayouts } from "@/lib/composer/provider-notes";
import { findService, type InvoiceDirection } from "@/lib/providers";
import { errorAt, fieldId, Section, TextField, type ComposerForm } from "./fields";

const DIRECTIONS: readonly { value: InvoiceDirection; label: string; help: string }[] = [
  { value: "payment", label: "Payment", help: "Collect money from a customer (spec 4.1)" },
  { value: "payout", label: "Payout", help: "Send money to a card (spec 4.2)" },
];

/** Invoice type, then a connection; the services follow the connection and the currency the service. */
export function ConnectionSection({
  form,
  values,
  connections,
  role,
  pinLive,
}: {
  form: ComposerForm;
  values: ComposerValues;
  connections: readonly ComposerConnection[];
  role: Role;
  pinLive: boolean;
}) {
  const groups = groupByProvider(connections, values.direction);
  const chosen = connections.find((c) => c.id === values.connection_id);
  const services = servicesOf(chosen, values.direction);
  const set = <K extends "provider" | "service" | "currency" | "test_mode" | "connection_id" | "customer_placement">(
    name: K,
    value: ComposerValues[K],
  ) => form.setValue(name, value as never, { shouldDirty: true });

  const chooseConnection = (id: string, direction: InvoiceDirection) => {
    const connection = connections.find((c) => c.id === id);
    if (!connection) return;
    const patch = connectionPatch(connection, direction, form.getValues("service"));
    set("provider", patch.provider);
    set("service", patch.service);
    set("currency", patch.currency);
    if (role === "owner") set("test_mode", patch.test_mode);
  };

  const onDirection = (direction: InvoiceDirection) => {
    const current = connections.find((c) => c.id === form.getValues("connection_id"));
    const next = current && servicesOf(current, direction).length > 0 ? current : groupByProvider(connections, direction)[0]?.connections[0];
    set("connection_id", next?.id ?? "");
    if (next) chooseConnection(next.id, direction);
    else (["provider", "service", "currency"] as const).forEach((name) => set(name, ""));
    if (direction === "payout" && form.getValues("customer_placement") === "gateway_options") set("customer_placement", "attributes");
  };

  const connectionError = errorAt(form, "connection_id");
  const serviceError = errorAt(form, "service");
  const directionError = errorAt(form, "direction");
  return (
    <Section title="Invoice type and connection">
      <fieldset aria-describedby={`${fieldId("direction")}-error`}>
        <legend className="label">Invoice type</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {DIRECTIONS.map((direction) => (
            <label
              key={direction.value}
              className={`flex cursor-pointer gap-3 rounded-md border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${values.direction === direction.value ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-white"}`}
            >
              <input type="radio" value={direction.value} {...form.register("direction", { onChange: (e) => onDirection(e.target.value) })} />
              <span>
                <span className="block font-medium">{direction.label}</span>
                <span className="block text-slate-600">{direction.help}</span>
              </span>
            </label>
          ))}
        </div>
        <p id={`${fieldId("direction")}-error`} className="field-error" aria-live="polite">
          {directionError}
        </p>
      </fieldset>

      <Field
        id={fieldId("connection_id")}
        label="Connection"
        required
        error={connectionError}
        help={
          groups.length === 0 ? (
            <NoConnections role={role} direction={values.direction} />
          ) : (
            <>
              Your enabled connections offering this invoice type.{" "}
              {values.test_mode || pinLive ? (
                <>The invoice is pinned to the one you choose (<code>relationships.connection</code> in the body).</>
              ) : (
                <>
                  Live invoices are not pinned: the API sends them to the first connection of your{" "}
                  <Link href="/routing" className="text-brand-700 underline">routing order</Link> for the service.
                </>
              )}
            </>
          )
        }
      >
        <div className="flex items-center gap-2">
          <select
            className="input"
            value={values.connection_id}
            {...fieldAria(fieldId("connection_id"), connectionError, true)}
            {...form.register("connection_id", { onChange: (e) => chooseConnection(e.target.value, form.getValues("direction")) })}
          >
            <option value="">Choose a connection…</option>
            {groups.map((group) => (
              <optgroup key={group.provider} label={group.name}>
                {group.connections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.label} ({c.mode === "test" ? "Test" : "Live"})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          {chosen ? <ModeBadge mode={chosen.mode} /> : null}
        </div>
      </Field>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={fieldId("service")} label="Service" required error={serviceError} help="The services of the chosen connection.">
          <select
            className="input"
            value={values.service}
            {...fieldAria(fieldId("service"), serviceError, true)}
            {...form.register("service", { onChange: (e) => set("currency", findService(e.target.value)?.currency ?? "") })}
          >
            {services.length === 0 ? <option value="">Choose a connection first</option> : null}
            {services.map((service) => (
              <option key={service.code} value={service.code}>
                {service.code}
              </option>
            ))}
          </select>
        </Field>
        <TextField form={form} name="currency" label="Currency" readOnly help="Follows the service (spec 2.2)." />
      </div>
      <TextField form={form} name="commerce_account" label="Commerce account" readOnly help="Your merchant's commerce account." />
    </Section>
  );
}

function NoConnections({ role, direction }: { role: Role; direction: InvoiceDirection }) {
  const what = direction === "payout" ? `payouts (${joinNames(providersOfferingPayouts())} with the Payouts feature)` : "payments";
  if (role !== "owner") return <>No enabled test-mode connection offers {what}. Ask an owner to connect one.</>;
  return (
    <>
      No enabled connection offers {what}. <Link href="/providers" className="text-brand-700 underline">Connect a provider</Link> first.
    </>
  );
}
