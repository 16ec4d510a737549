"use client";

import { useState, useTransition } from "react";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { simulateRoutingAction } from "@/lib/actions/routing";
import type { SimulationAttributes } from "@/lib/api/routing-resource";
import { rateText } from "@/lib/routing/success";

export type SimulatorScope = { id: string; service: string; mode: "test" | "live"; currency: string };

type Fields = { scope: string; amount: string; customerCountry: string; cardBin: string };

/** Reads a pasted invoice (the API's body or resource): service, test_mode, amount, the customer's country, the card's first digits. */
function fromPasted(text: string): Partial<Fields> & { testMode?: boolean } {
  const parsed = JSON.parse(text) as { data?: { attributes?: Record<string, unknown> }; attributes?: Record<string, unknown> } & Record<string, unknown>;
  const a = (parsed.data?.attributes ?? parsed.attributes ?? parsed) as Record<string, unknown> & {
    customer?: { address?: { country?: string } };
    fields?: { card_number?: string };
  };
  const card = typeof a.fields?.card_number === "string" ? (/^[\d\s-]*/.exec(a.fields.card_number)?.[0] ?? "").replace(/\D/g, "").slice(0, 6) : "";
  return {
    amount: a.amount === undefined ? undefined : String(a.amount),
    customerCountry: a.customer?.address?.country,
    cardBin: card.length === 6 ? card : undefined,
    scope: typeof a.service === "string" ? `${a.service}:${a.test_mode === true ? "test" : "live"}` : undefined,
  };
}

/** A connection's counts beside its place, when the outcome orders by success rate. */
function rateNote(result: SimulationAttributes, id: string): string {
  const counted = result.success_rate?.connections.find((entry) => entry.id === id);
  if (!result.success_rate || !counted) return "";
  const explored = result.success_rate.explored === id ? ", explored" : "";
  if (!counted.trusted)
    return ` (${counted.attempts} attempt${counted.attempts === 1 ? "" : "s"}, ${result.success_rate.min_sample} needed: keeps its listed place${explored})`;
  return ` (${rateText(counted.successes, counted.attempts)} of ${counted.attempts}${explored})`;
}

/**
 * "What would happen": an invoice's attributes (typed, or pasted as JSON) → the rule that
 * matches, the split's branch, the order and the sentence the invoice would carry. The server
 * runs the very decision invoice creation makes, over the saved rules; nothing is created.
 */
export function RoutingSimulator({ scopes }: { scopes: SimulatorScope[] }) {
  const [fields, setFields] = useState<Fields>({ scope: scopes[0]?.id ?? "", amount: "10.00", customerCountry: "", cardBin: "" });
  const [pasted, setPasted] = useState("");
  const [result, setResult] = useState<SimulationAttributes>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string>();
  const [pending, startTransition] = useTransition();
  const scope = scopes.find((entry) => entry.id === fields.scope);
  const set = (key: keyof Fields, value: string) => setFields((current) => ({ ...current, [key]: value }));

  const readPasted = () => {
    try {
      const found = fromPasted(pasted);
      const known = found.scope && scopes.some((entry) => entry.id === found.scope) ? found.scope : fields.scope;
      setFields((current) => ({
        scope: known,
        amount: found.amount ?? current.amount,
        customerCountry: found.customerCountry ?? "",
        cardBin: found.cardBin ?? "",
      }));
      setAlert(found.scope && known !== found.scope ? `You have no connection for ${found.scope}; the other attributes were read.` : undefined);
    } catch {
      setAlert("That is not JSON: paste an invoice's body or resource as the API shows it.");
    }
  };

  const run = () =>
    startTransition(async () => {
      setAlert(undefined);
      setErrors({});
      if (!scope) return setAlert("Choose a service.");
      const answer = await simulateRoutingAction({
        service: scope.service,
        test_mode: scope.mode === "test",
        amount: fields.amount,
        ...(fields.customerCountry.trim() ? { customer_country: fields.customerCountry.trim() } : {}),
        ...(fields.cardBin.trim() ? { card_bin: fields.cardBin.trim() } : {}),
      });
      if (!answer.ok) {
        setErrors(answer.fieldErrors);
        setResult(undefined);
        setAlert(answer.message ?? "Check the marked fields.");
        return;
      }
      setResult(answer.data);
    });

  const error = (name: string) =>
    errors[name] ? (
      <p id={`sim-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;

  return (
    <section className="card mb-6 min-w-0" aria-labelledby="routing-simulator-title" data-testid="routing-simulator">
      <h2 id="routing-simulator-title" className="text-base font-semibold">
        Try an invoice
      </h2>
      <p className="text-sm text-slate-600">See which rule applies and where the invoice would go, with your saved rules. Nothing is created.</p>
      <form
        className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        <div>
          <label htmlFor="sim-scope" className="label">
            Service and mode
          </label>
          <select id="sim-scope" className="input mt-1" value={fields.scope} onChange={(event) => set("scope", event.target.value)}>
            {scopes.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.service} ({entry.mode})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="sim-amount" className="label">
            Amount{scope ? ` (${scope.currency})` : ""}
          </label>
          <input
            id="sim-amount"
            className="input mt-1"
            inputMode="decimal"
            value={fields.amount}
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={errors.amount ? "sim-amount-error" : undefined}
            onChange={(event) => set("amount", event.target.value)}
          />
          {error("amount")}
        </div>
        <div>
          <label htmlFor="sim-country" className="label">
            Customer country
          </label>
          <input
            id="sim-country"
            className="input mt-1"
            placeholder="FR"
            maxLength={2}
            value={fields.customerCountry}
            aria-invalid={errors.customer_country ? true : undefined}
            aria-describedby={errors.customer_country ? "sim-customer_country-error" : undefined}
            onChange={(event) => set("customerCountry", event.target.value)}
          />
          {error("customer_country")}
        </div>
        <div>
          <label htmlFor="sim-bin" className="label">
            Card&apos;s first 6 digits
          </label>
          <input
            id="sim-bin"
            className="input mt-1"
            inputMode="numeric"
            placeholder="Unknown (before Pay)"
            maxLength={9}
            value={fields.cardBin}
            aria-invalid={errors.card_bin ? true : undefined}
            aria-describedby={errors.card_bin ? "sim-card_bin-error" : "sim-bin-help"}
            onChange={(event) => set("cardBin", event.target.value)}
          />
          <p id="sim-bin-help" className="help">
            Empty: the card is not known yet, as before Pay.
          </p>
          {error("card_bin")}
        </div>
        <div className="flex items-end sm:col-span-2 lg:col-span-4">
          <SubmitButton pending={pending} pendingLabel="Working it out…">
            Show the route
          </SubmitButton>
        </div>
      </form>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm text-brand-700">Paste an invoice instead</summary>
        <label htmlFor="sim-paste" className="label mt-2">
          Invoice JSON (body or resource)
        </label>
        <textarea id="sim-paste" className="input mt-1 h-28 font-mono text-xs" value={pasted} onChange={(event) => setPasted(event.target.value)} />
        <button type="button" className="btn-secondary mt-2" onClick={readPasted}>
          Fill the fields from it
        </button>
      </details>
      <FormAlert message={alert} />
      <div role="status" aria-live="polite" data-testid="routing-simulation">
        {result ? (
          <div className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
            <p className="font-medium">
              {result.rule ? `Rule ${result.rule.position}: ${result.rule.name}` : "Default rule (the routing order)"}
              {result.branch ? ` · split branch ${result.branch.position} (${result.branch.weight}%)` : ""}
              {result.three_ds === "required" ? " · 3-D Secure required" : ""}
            </p>
            {result.connections.length > 0 ? (
              <ol className="mt-1 list-decimal pl-5">
                {result.connections.map((connection) => (
                  <li key={connection.id}>
                    {connection.label}
                    {rateNote(result, connection.id)}
                  </li>
                ))}
              </ol>
            ) : null}
            <p className="mt-1 text-slate-700">{result.explanation}</p>
          </div>
        ) : null}
      </div>
    </section>
  );
}
