"use client";

import { useEffect, useRef, useState } from "react";
import { useUnsavedChanges } from "@/components/forms/use-unsaved-changes";
import { CARD_BRANDS, CARD_BRAND_LABELS } from "@/lib/cards/bin";
import { conditionProblems } from "@/lib/routing/rule-checks";
import type { OrderBy, RoutingRule } from "@/lib/routing/rules";
import { ConnectionListField, type ConnectionOption } from "./connection-list-field";

type Draft = {
  name: string;
  amountMin: string;
  amountMax: string;
  customerCountries: string;
  cardBrands: string[];
  cardCountries: string;
  kind: "cascade" | "split";
  cascade: string[];
  cascadeOrder: OrderBy;
  branches: { weight: string; ids: string[]; order: OrderBy }[];
  requireThreeDs: boolean;
};

const listOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((part) => part.trim().toUpperCase())
    .filter(Boolean);

function draftOf(rule: RoutingRule | undefined): Draft {
  const c = rule?.conditions ?? {};
  const outcome = rule?.outcome;
  return {
    name: rule?.name ?? "",
    amountMin: c.amount_min ?? "",
    amountMax: c.amount_max ?? "",
    customerCountries: (c.customer_countries ?? []).join(", "),
    cardBrands: c.card_brands ?? [],
    cardCountries: (c.card_countries ?? []).join(", "),
    kind: outcome?.kind ?? "cascade",
    cascade: outcome?.kind === "cascade" ? outcome.connection_ids : [],
    cascadeOrder: outcome?.kind === "cascade" ? (outcome.order_by ?? "as_listed") : "as_listed",
    branches:
      outcome?.kind === "split"
        ? outcome.branches.map((branch) => ({ weight: String(branch.weight), ids: branch.connection_ids, order: branch.order_by ?? "as_listed" }))
        : [
            { weight: "70", ids: [], order: "as_listed" },
            { weight: "30", ids: [], order: "as_listed" },
          ],
    requireThreeDs: rule?.require_three_ds === true,
  };
}

/** The draft as a rule; the server checks it (schema and the save's own checks) when the rules are saved. */
function ruleOf(draft: Draft): RoutingRule {
  const conditions: RoutingRule["conditions"] = {};
  if (draft.amountMin.trim()) conditions.amount_min = draft.amountMin.trim();
  if (draft.amountMax.trim()) conditions.amount_max = draft.amountMax.trim();
  if (listOf(draft.customerCountries).length) conditions.customer_countries = listOf(draft.customerCountries);
  if (draft.cardBrands.length) conditions.card_brands = draft.cardBrands;
  if (listOf(draft.cardCountries).length) conditions.card_countries = listOf(draft.cardCountries);
  const clean = (ids: string[]) => ids.filter(Boolean);
  // As listed is the default and is saved as no order_by, as rules were before the option existed.
  const orderBy = (order: OrderBy) => (order === "success_rate" ? { order_by: order } : {});
  return {
    name: draft.name.trim(),
    conditions,
    outcome:
      draft.kind === "cascade"
        ? { kind: "cascade", connection_ids: clean(draft.cascade), ...orderBy(draft.cascadeOrder) }
        : {
            kind: "split",
            branches: draft.branches.map((branch) => ({ weight: Number(branch.weight), connection_ids: clean(branch.ids), ...orderBy(branch.order) })),
          },
    // Not required is the default and is saved as no require_three_ds, as rules were before the option existed.
    ...(draft.requireThreeDs ? { require_three_ds: true } : {}),
  };
}

const FIELD_IDS = { amountMin: "min", amountMax: "max", customerCountries: "customer", cardCountries: "card-country" } as const;

/** The conditions' problems by field, checked as they are typed (lib/routing/rule-checks.ts, as the server checks them). */
function fieldProblems(draft: Draft): Record<string, string> {
  return conditionProblems({
    amountMin: draft.amountMin,
    amountMax: draft.amountMax,
    countries: [
      { field: "customerCountries", codes: listOf(draft.customerCountries) },
      { field: "cardCountries", codes: listOf(draft.cardCountries) },
    ],
  });
}

/** What the form can check before the server does, so the merchant hears it at once. */
function localProblems(draft: Draft): string[] {
  const problems: string[] = Object.values(fieldProblems(draft));
  if (!draft.name.trim()) problems.push("Give the rule a name.");
  if (draft.kind === "cascade" && draft.cascade.filter(Boolean).length === 0) problems.push("Choose at least one connection.");
  if (draft.kind === "split") {
    const total = draft.branches.reduce((sum, branch) => sum + (Number(branch.weight) || 0), 0);
    if (total !== 100) problems.push(`The shares add up to ${total}%, not 100%.`);
    draft.branches.forEach((branch, index) => {
      if (branch.ids.filter(Boolean).length === 0) problems.push(`Choose a connection for branch ${index + 1}.`);
    });
  }
  return problems;
}

/** How a cascade orders its connections: a native select (44 px on phones like every input). */
function OrderField({ id, value, onChange, what }: { id: string; value: OrderBy; onChange: (next: OrderBy) => void; what: string }) {
  return (
    <div className="mt-2">
      <label htmlFor={id} className="text-sm text-slate-700">
        Order of {what}
      </label>
      <select id={id} className="input mt-1 w-auto" value={value} aria-describedby={`${id}-help`} onChange={(event) => onChange(event.target.value as OrderBy)}>
        <option value="as_listed">As listed</option>
        <option value="success_rate">By success rate</option>
      </select>
      <p id={`${id}-help`} className="help">
        By success rate: the connection that processed this service best over your window goes first (set under Success-rate ordering); a few invoices explore
        the others.
      </p>
    </div>
  );
}

/**
 * Builds or edits one rule: a name, its conditions (all optional: a rule without any applies to
 * every invoice) and its outcome, a cascade or a split by percentage with a cascade per branch.
 * Native inputs only, so it is filled in with the keyboard alone.
 */
export function RuleForm({
  idPrefix,
  rule,
  currency,
  options,
  onApply,
  onCancel,
}: {
  idPrefix: string;
  rule?: RoutingRule;
  currency: string;
  options: readonly ConnectionOption[];
  onApply: (rule: RoutingRule) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(rule));
  // Unapplied edits of an open rule are unsaved work too: compared with what the form opened with.
  const [opened] = useState(() => JSON.stringify(draftOf(rule)));
  useUnsavedChanges(JSON.stringify(draft) !== opened);
  const [problems, setProblems] = useState<string[]>([]);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const id = (name: string) => `${idPrefix}-${name}`;
  const live = fieldProblems(draft);
  /** A condition's input: invalid and described by its problem while the typed text has one. */
  const checked = (field: keyof typeof FIELD_IDS, describedBy?: string) => ({
    "aria-invalid": live[field] ? true : undefined,
    "aria-describedby": [describedBy, live[field] ? id(`${FIELD_IDS[field]}-error`) : undefined].filter(Boolean).join(" ") || undefined,
  });
  const problemOf = (field: keyof typeof FIELD_IDS) =>
    live[field] ? (
      <p id={id(`${FIELD_IDS[field]}-error`)} className="field-error" data-testid={`rule-${FIELD_IDS[field]}-error`}>
        {live[field]}
      </p>
    ) : null;

  return (
    <form
      className="space-y-4 rounded-md border border-slate-200 bg-slate-50 p-3"
      aria-label={rule ? `Edit rule ${rule.name}` : "New rule"}
      onSubmit={(event) => {
        event.preventDefault();
        const found = localProblems(draft);
        setProblems(found);
        if (found.length === 0) onApply(ruleOf(draft));
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <div>
        <label htmlFor={id("name")} className="label">
          Rule name
        </label>
        <input ref={first} id={id("name")} className="input mt-1" value={draft.name} maxLength={80} onChange={(event) => set("name", event.target.value)} />
      </div>
      <fieldset>
        <legend className="label">Applies when (leave a field empty to ignore it)</legend>
        <div className="mt-1 grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor={id("min")} className="text-sm text-slate-700">
              Amount at least ({currency})
            </label>
            <input
              id={id("min")}
              className="input mt-1"
              inputMode="decimal"
              value={draft.amountMin}
              {...checked("amountMin")}
              onChange={(event) => set("amountMin", event.target.value)}
            />
            {problemOf("amountMin")}
          </div>
          <div>
            <label htmlFor={id("max")} className="text-sm text-slate-700">
              Amount at most ({currency})
            </label>
            <input
              id={id("max")}
              className="input mt-1"
              inputMode="decimal"
              value={draft.amountMax}
              {...checked("amountMax")}
              onChange={(event) => set("amountMax", event.target.value)}
            />
            {problemOf("amountMax")}
          </div>
          <div>
            <label htmlFor={id("customer")} className="text-sm text-slate-700">
              Customer country is one of
            </label>
            <input
              id={id("customer")}
              className="input mt-1"
              placeholder="FR, DE"
              {...checked("customerCountries", id("countries-help"))}
              value={draft.customerCountries}
              onChange={(event) => set("customerCountries", event.target.value)}
            />
            {problemOf("customerCountries")}
          </div>
          <div>
            <label htmlFor={id("card-country")} className="text-sm text-slate-700">
              Card issued in one of
            </label>
            <input
              id={id("card-country")}
              className="input mt-1"
              placeholder="GB"
              {...checked("cardCountries", id("countries-help"))}
              value={draft.cardCountries}
              onChange={(event) => set("cardCountries", event.target.value)}
            />
            {problemOf("cardCountries")}
          </div>
        </div>
        <p id={id("countries-help")} className="help mt-1">
          Two-letter country codes, separated by commas. Card conditions are decided once the card is known (at Pay on the hosted page; a payout&apos;s card at
          creation).
        </p>
        <fieldset className="mt-2">
          <legend className="text-sm text-slate-700">Card brand is one of</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {CARD_BRANDS.map((brand) => (
              <label key={brand} className="inline-flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  checked={draft.cardBrands.includes(brand)}
                  onChange={(event) => set("cardBrands", event.target.checked ? [...draft.cardBrands, brand] : draft.cardBrands.filter((b) => b !== brand))}
                />
                {CARD_BRAND_LABELS[brand]}
              </label>
            ))}
          </div>
        </fieldset>
      </fieldset>
      <div>
        <label className="inline-flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            id={id("three-ds")}
            aria-describedby={id("three-ds-help")}
            checked={draft.requireThreeDs}
            onChange={(event) => set("requireThreeDs", event.target.checked)}
          />
          Require 3-D Secure
        </label>
        <p id={id("three-ds-help")} className="help mt-1">
          The provider is asked to authenticate the customer: a challenge, or frictionless when the issuer allows. Connections whose provider cannot are passed
          over.
        </p>
      </div>
      <fieldset>
        <legend className="label">Then send invoices</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          <label className="inline-flex items-center gap-1 text-sm">
            <input type="radio" name={id("kind")} checked={draft.kind === "cascade"} onChange={() => set("kind", "cascade")} />
            Down a list of connections
          </label>
          <label className="inline-flex items-center gap-1 text-sm">
            <input type="radio" name={id("kind")} checked={draft.kind === "split"} onChange={() => set("kind", "split")} />
            Split by percentage
          </label>
        </div>
        {draft.kind === "cascade" ? (
          <div className="mt-2">
            <ConnectionListField
              idPrefix={id("cascade")}
              legend="Connections"
              value={draft.cascade}
              options={options}
              onChange={(next) => set("cascade", next)}
            />
            <OrderField id={id("cascade-order")} what="these connections" value={draft.cascadeOrder} onChange={(next) => set("cascadeOrder", next)} />
          </div>
        ) : (
          <div className="mt-2 space-y-3">
            {draft.branches.map((branch, index) => (
              <div key={index} className="rounded border border-slate-200 bg-white p-2">
                <label htmlFor={id(`weight-${index}`)} className="text-sm text-slate-700">
                  Branch {index + 1}: share (%)
                </label>
                <input
                  id={id(`weight-${index}`)}
                  className="input mt-1 w-24"
                  inputMode="numeric"
                  value={branch.weight}
                  onChange={(event) =>
                    set(
                      "branches",
                      draft.branches.map((b, i) => (i === index ? { ...b, weight: event.target.value } : b)),
                    )
                  }
                />
                <div className="mt-2">
                  <ConnectionListField
                    idPrefix={id(`branch-${index}`)}
                    legend={`Branch ${index + 1} connections`}
                    value={branch.ids}
                    options={options}
                    onChange={(next) =>
                      set(
                        "branches",
                        draft.branches.map((b, i) => (i === index ? { ...b, ids: next } : b)),
                      )
                    }
                  />
                  <OrderField
                    id={id(`branch-${index}-order`)}
                    what={`branch ${index + 1}`}
                    value={branch.order}
                    onChange={(next) =>
                      set(
                        "branches",
                        draft.branches.map((b, i) => (i === index ? { ...b, order: next } : b)),
                      )
                    }
                  />
                </div>
                {draft.branches.length > 2 ? (
                  <button
                    type="button"
                    className="btn-secondary mt-2 px-2 py-1"
                    onClick={() =>
                      set(
                        "branches",
                        draft.branches.filter((_, i) => i !== index),
                      )
                    }
                  >
                    Remove branch {index + 1}
                  </button>
                ) : null}
              </div>
            ))}
            {draft.branches.length < 4 ? (
              <button
                type="button"
                className="btn-secondary px-2 py-1"
                onClick={() => set("branches", [...draft.branches, { weight: "0", ids: [], order: "as_listed" }])}
              >
                Add a branch
              </button>
            ) : null}
          </div>
        )}
      </fieldset>
      {problems.length > 0 ? (
        <ul role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {problems.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary">
          {rule ? "Apply changes" : "Add this rule"}
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
