"use client";

import { Link } from "@/components/link";
import { useEffect } from "react";
import { ModeBadge } from "@/components/connections/badges";
import { Field, fieldAria } from "@/components/forms/field";
import { useRadioMarkup } from "@/components/forms/use-zod-form";
import type { Role } from "@/lib/db/schema";
import {
  connectionPatch,
  groupByProvider,
  routableServices,
  routeFor,
  servicesOf,
  type ComposerConnection,
  type ComposerRoutes,
} from "@/lib/composer/connections";
import type { ComposerValues } from "@/lib/composer/form-values";
import { joinNames, providersOfferingPayouts } from "@/lib/composer/provider-notes";
import { findService, type InvoiceDirection } from "@/lib/providers";
import { errorAt, fieldId, Section, TextField, type ComposerForm } from "./fields";
import { useRoutePreview, type RoutePreview } from "./use-route-preview";
import { can, canInMode } from "@/lib/identity/permissions";

const DIRECTIONS: readonly { value: InvoiceDirection; label: string; help: string }[] = [
  { value: "payment", label: "Payment", help: "Collect money from a customer" },
  { value: "payout", label: "Payout", help: "Send money to a card" },
];

const ROUTINGS: readonly { value: ComposerValues["routing"]; label: string; help: string }[] = [
  {
    value: "auto",
    label: "Route automatically",
    help: "As for any invoice from your systems: the first connection of your routing order for the service, then the next one after a soft failure.",
  },
  { value: "pin", label: "Pin to a connection", help: "Only the connection you choose, with no cascading." },
];

/**
 * Invoice type, then routing: automatic by default (the services are those any connection offers),
 * or pinned to a chosen connection (its services). The currency follows the service.
 */
export function ConnectionSection({
  form,
  values,
  connections,
  routes,
  role,
  pinLive,
}: {
  form: ComposerForm;
  values: ComposerValues;
  connections: readonly ComposerConnection[];
  routes: ComposerRoutes;
  role: Role;
  pinLive: boolean;
}) {
  const radioMarkup = useRadioMarkup();
  const groups = groupByProvider(connections, values.direction);
  const pinning = values.routing === "pin";
  const chosen = connections.find((c) => c.id === values.connection_id);
  const services = pinning ? servicesOf(chosen, values.direction) : routableServices(connections, values.direction);
  const set = <K extends "provider" | "service" | "currency" | "test_mode" | "connection_id" | "customer_placement" | "routing">(
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
    if (canInMode(role, "invoices.compose", "live")) set("test_mode", patch.test_mode);
  };

  /** Routed automatically, the fields shown are those of the provider the invoice goes to first. */
  const chooseService = (code: string) => {
    set("currency", findService(code)?.currency ?? "");
    if (form.getValues("routing") === "auto") set("provider", routeFor(routes, connections, code, form.getValues("test_mode"))[0]?.provider ?? "");
  };

  const onDirection = (direction: InvoiceDirection) => {
    const current = connections.find((c) => c.id === form.getValues("connection_id"));
    const next = current && servicesOf(current, direction).length > 0 ? current : groupByProvider(connections, direction)[0]?.connections[0];
    set("connection_id", next?.id ?? "");
    if (form.getValues("routing") === "auto") {
      const service = routableServices(connections, direction).find((s) => s.code === form.getValues("service")) ?? routableServices(connections, direction)[0];
      set("service", service?.code ?? "");
      chooseService(service?.code ?? "");
    } else if (next) chooseConnection(next.id, direction);
    else (["provider", "service", "currency"] as const).forEach((name) => set(name, ""));
    if (direction === "payout" && form.getValues("customer_placement") === "gateway_options") set("customer_placement", "attributes");
  };

  const onRouting = (routing: ComposerValues["routing"]) => {
    if (routing === "pin") {
      // Pinning starts from a connection offering the current service, so what is filled in stays.
      const direction = form.getValues("direction");
      const service = form.getValues("service");
      const current = connections.find((c) => c.id === form.getValues("connection_id"));
      const offering = (c: ComposerConnection) => servicesOf(c, direction).some((s) => s.code === service);
      const sameMode = (c: ComposerConnection) => offering(c) && (c.mode === "test") === form.getValues("test_mode");
      const next = current && offering(current) ? current : (connections.find(sameMode) ?? connections.find(offering) ?? current);
      set("connection_id", next?.id ?? "");
      if (next) chooseConnection(next.id, direction);
    } else {
      chooseService(form.getValues("service"));
    }
  };

  const route = routeFor(routes, connections, values.service, values.test_mode);
  const preview = useRoutePreview(values, !pinning);
  // The fields shown are those of the provider routing sends it to first, as the simulator decides it.
  // Derived, not typed: it leaves the form's dirty state alone (an answer arriving after Send would
  // otherwise make leaving the page ask about unsaved changes).
  const previewProvider = preview ? connections.find((c) => c.id === preview.connectionIds[0])?.provider : undefined;
  useEffect(() => {
    if (previewProvider && form.getValues("routing") === "auto" && form.getValues("provider") !== previewProvider) {
      form.setValue("provider", previewProvider);
    }
  }, [previewProvider, form]);
  const connectionError = errorAt(form, "connection_id");
  const serviceError = errorAt(form, "service");
  const directionError = errorAt(form, "direction");
  return (
    <Section title="Invoice type and routing">
      <fieldset aria-describedby={`${fieldId("direction")}-error`}>
        <legend className="label">Invoice type</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {DIRECTIONS.map((direction) => (
            <label
              key={direction.value}
              className={`flex cursor-pointer gap-3 rounded-md border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${values.direction === direction.value ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-white"}`}
            >
              <input
                type="radio"
                value={direction.value}
                {...form.register("direction", { onChange: (e) => onDirection(e.target.value) })}
                {...radioMarkup(values.direction === direction.value)}
              />
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

      <fieldset>
        <legend className="label">Routing</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {ROUTINGS.map((routing) => (
            <label
              key={routing.value}
              className={`flex cursor-pointer gap-3 rounded-md border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${values.routing === routing.value ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-white"}`}
            >
              <input
                type="radio"
                value={routing.value}
                {...form.register("routing", { onChange: (e) => onRouting(e.target.value) })}
                {...radioMarkup(values.routing === routing.value)}
              />
              <span>
                <span className="block font-medium">{routing.label}</span>
                <span className="block text-slate-600">{routing.help}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {pinning ? (
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
                  <>The invoice goes to the one you choose and nowhere else.</>
                ) : (
                  <>
                    Your settings do not allow pinning live invoices, so a live one goes to the first connection of your{" "}
                    <Link href="/routing" className="text-brand-700 underline">
                      routing order
                    </Link>{" "}
                    for the service.
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
      ) : (
        <RouteSummary
          route={route}
          preview={preview}
          service={values.service}
          testMode={values.test_mode}
          role={role}
          direction={values.direction}
          empty={groups.length === 0}
        />
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={fieldId("service")}
          label="Service"
          required
          error={serviceError}
          help={pinning ? "The services of the chosen connection." : "The services your enabled connections offer for this invoice type."}
        >
          <select
            className="input"
            value={values.service}
            {...fieldAria(fieldId("service"), serviceError, true)}
            {...form.register("service", { onChange: (e) => chooseService(e.target.value) })}
          >
            {services.length === 0 ? <option value="">{pinning ? "Choose a connection first" : "No connection offers this type"}</option> : null}
            {services.length > 0 && !pinning && values.service === "" ? <option value="">Choose a service…</option> : null}
            {services.map((service) => (
              <option key={service.code} value={service.code}>
                {service.code}
              </option>
            ))}
          </select>
        </Field>
        <TextField form={form} name="currency" label="Currency" readOnly help="Follows the service." />
      </div>
      <TextField form={form} name="commerce_account" label="Commerce account" readOnly help="Your merchant's commerce account." />
    </Section>
  );
}

function NoConnections({ role, direction }: { role: Role; direction: InvoiceDirection }) {
  const what = direction === "payout" ? `payouts (${joinNames(providersOfferingPayouts())} with the Payouts feature)` : "payments";
  if (!can(role, "connections.write")) return <>No enabled test-mode connection offers {what}. Ask an owner to connect one.</>;
  return (
    <>
      No enabled connection offers {what}.{" "}
      <Link href="/providers" className="text-brand-700 underline">
        Connect a provider
      </Link>{" "}
      first.
    </>
  );
}

/** Where an automatically routed invoice goes: the first connection, then the cascade, as the routing order says now. */
function RouteSummary({
  route,
  preview,
  service,
  testMode,
  role,
  direction,
  empty,
}: {
  route: readonly ComposerConnection[];
  preview: RoutePreview | undefined;
  service: string;
  testMode: boolean;
  role: Role;
  direction: InvoiceDirection;
  empty: boolean;
}) {
  const mode = testMode ? "test" : "live";
  const order = (
    <Link href="/routing" className="text-brand-700 underline">
      routing order
    </Link>
  );
  let text;
  if (empty) text = <NoConnections role={role} direction={direction} />;
  else if (service === "") text = <>Choose a service to see where your {order} sends it.</>;
  else if (route.length === 0)
    text = (
      <>
        No enabled {mode}-mode connection offers {service}, so the API will refuse this invoice.
      </>
    );
  else if (preview) {
    const [first, ...rest] = preview.labels;
    const provider = route.find((c) => c.id === preview.connectionIds[0])?.providerName;
    text = (
      <>
        Routing sends it to <strong>{first}</strong>
        {provider ? ` (${provider})` : ""} first — {preview.reasonText}
        {rest.length > 0 ? <>; then {rest.join(", ")} if a connection fails softly</> : null}.
      </>
    );
  } else {
    const [first, ...rest] = route;
    text = (
      <>
        Your {order} sends it to <strong>{first!.label}</strong> ({first!.providerName}) first
        {rest.length > 0 ? <>, then {rest.map((c) => c.label).join(", ")} if a connection fails softly</> : null}, unless one of your routing rules applies to
        the invoice.
      </>
    );
  }
  return (
    <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700" data-testid="composer-route" aria-live="polite">
      {text}
    </p>
  );
}
