"use client";

import { useEffect, useRef, useState, useTransition } from "react";
import { notify } from "@/components/feedback";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { useUnsavedChanges } from "@/components/forms/use-unsaved-changes";
import { saveRoutingRulesAction } from "@/lib/actions/routing";
import type { RoutingRule } from "@/lib/routing/rules";
import { rulesKey } from "@/lib/routing/rules-key";
import type { ConnectionOption } from "./connection-list-field";
import { moveItem } from "./move";
import { useClearedOnRollback } from "./replaced-event";
import { RuleForm } from "./rule-form";
import { ruleConditionsText, ruleOutcomeText, ruleThreeDsText } from "./rule-summary";

type Editing = { index: number } | { index: "new" } | undefined;

/**
 * The rules before the default rule of one service and mode: read as sentences, first to last;
 * owners add, edit, move and remove them, then save the list whole (one new version). The server
 * refuses a rule that could never take an invoice, and says why at that rule.
 */
export function RoutingRulesEditor({
  service,
  mode,
  currency,
  rules: saved,
  options,
  editable,
  domId,
}: {
  service: string;
  mode: "test" | "live";
  currency: string;
  rules: RoutingRule[];
  options: ConnectionOption[];
  editable: boolean;
  domId: string;
}) {
  const [rules, setRules] = useState(saved);
  const [savedRules, setSavedRules] = useState(saved);
  const [editing, setEditing] = useState<Editing>();
  const [pending, startTransition] = useTransition();
  const [alert, setAlert] = useState<string>();
  const [ruleErrors, setRuleErrors] = useState<Record<number, string[]>>({});
  const [status, setStatus] = useState("");
  useClearedOnRollback(`${service}:${mode}`, setStatus);
  const listRef = useRef<HTMLOListElement>(null);
  const dirty = rulesKey(rules) !== rulesKey(savedRules);
  useUnsavedChanges(dirty);
  // Newer saved rules from the server (this save's refresh, a rollback): adopted in place rather
  // than by a remount, so the status line ("Rules saved as version 2.") stays to be read.
  const served = rulesKey(saved);
  const [adopted, setAdopted] = useState(served);
  if (served !== adopted) {
    setAdopted(served);
    setSavedRules(saved);
    if (!dirty) setRules(saved);
  }
  const label = (id: string) => options.find((option) => option.id === id)?.label ?? id;

  const addRef = useRef<HTMLButtonElement>(null);
  // Where the focus goes once a change is on the page: a rule's button, or "Add a rule" when no
  // rule is left. After the commit, not a frame later: a keyboard user's next key must find it there.
  const focusAfter = useRef<{ index: number; what: string } | "add">(undefined);
  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = undefined;
    if (target === "add") addRef.current?.focus();
    else if (target) listRef.current?.querySelector<HTMLButtonElement>(`li[data-rule-index="${target.index}"] [data-action="${target.what}"]`)?.focus();
  }, [rules, editing]);
  const focusRule = (index: number, what: string) => {
    focusAfter.current = { index, what };
  };

  const apply = (rule: RoutingRule) => {
    const at = editing?.index === "new" || editing === undefined ? rules.length : editing.index;
    setRules(editing?.index === "new" ? [...rules, rule] : rules.map((current, i) => (i === at ? rule : current)));
    setEditing(undefined);
    setRuleErrors({});
    setStatus(`Rule ${at + 1} “${rule.name}” ${editing?.index === "new" ? "added" : "changed"}. Not saved yet.`);
    focusRule(at, "edit");
  };

  const move = (index: number, delta: -1 | 1) => {
    const to = index + delta;
    if (to < 0 || to >= rules.length) return;
    setRules(moveItem(rules, index, to));
    setRuleErrors({});
    setStatus(`${rules[index]!.name} moved to position ${to + 1} of ${rules.length}. Not saved yet.`);
    focusRule(to, delta === -1 ? "up" : "down");
  };

  const save = () => {
    startTransition(async () => {
      setAlert(undefined);
      setRuleErrors({});
      setStatus("Saving…");
      const result = await saveRoutingRulesAction({ service, mode, rules });
      if (!result.ok) {
        const errors: Record<number, string[]> = {};
        for (const [field, message] of Object.entries(result.fieldErrors)) {
          const index = /^rules\.(\d+)/.exec(field)?.[1];
          if (index !== undefined) (errors[Number(index)] ??= []).push(message);
        }
        setRuleErrors(errors);
        setStatus("");
        setAlert(result.message ?? "The rules were not saved: see the marked rules.");
        return;
      }
      setSavedRules(rules);
      setStatus(`Rules saved as version ${result.data.version}.`);
      notify({ message: `Routing rules saved (version ${result.data.version}).` });
      // The action's revalidatePath brings the page's new server parts back with its answer.
    });
  };

  return (
    <section aria-labelledby={`${domId}-rules-title`} className="mt-4 border-t border-slate-100 pt-3" data-testid="routing-rules">
      <h3 id={`${domId}-rules-title`} className="text-sm font-semibold">
        Rules, checked first to last
      </h3>
      <p className="text-xs text-slate-600">The first rule that applies decides; when none does, the default rule (the routing order below) does.</p>
      {rules.length === 0 ? <p className="mt-2 text-sm text-slate-600">No rules: every invoice follows the routing order.</p> : null}
      <ol ref={listRef} className="mt-2 space-y-2" aria-label={`Routing rules for ${service}, ${mode} mode`}>
        {rules.map((rule, index) =>
          editing?.index === index ? (
            <li key={`edit-${index}`}>
              <RuleForm
                idPrefix={`${domId}-rule-${index}`}
                rule={rule}
                currency={currency}
                options={options}
                onApply={apply}
                onCancel={() => {
                  setEditing(undefined);
                  focusRule(index, "edit");
                }}
              />
            </li>
          ) : (
            <li key={`${index}-${rule.name}`} data-rule-index={index} data-testid="routing-rule" className="rounded-md border border-slate-200 p-2">
              <p className="text-sm">
                <span className="font-mono text-slate-600">{index + 1}.</span> <span className="font-medium">{rule.name}</span>
              </p>
              <p className="text-sm text-slate-700">
                {ruleConditionsText(rule, currency)} → {ruleOutcomeText(rule, label)}
                {ruleThreeDsText(rule)}
              </p>
              {ruleErrors[index]?.map((message) => (
                <p key={message} className="field-error">
                  {message}
                </p>
              ))}
              {editable ? (
                <div className="mt-2 flex flex-wrap gap-1">
                  <button type="button" className="btn-secondary px-2 py-1" data-action="edit" onClick={() => setEditing({ index })}>
                    Edit<span className="sr-only"> rule {rule.name}</span>
                  </button>
                  <button
                    type="button"
                    className="btn-secondary px-2 py-1 aria-disabled:opacity-50"
                    data-action="up"
                    aria-disabled={index === 0 || undefined}
                    onClick={() => move(index, -1)}
                  >
                    Up<span className="sr-only">: move rule {rule.name} up</span>
                  </button>
                  <button
                    type="button"
                    className="btn-secondary px-2 py-1 aria-disabled:opacity-50"
                    data-action="down"
                    aria-disabled={index === rules.length - 1 || undefined}
                    onClick={() => move(index, 1)}
                  >
                    Down<span className="sr-only">: move rule {rule.name} down</span>
                  </button>
                  <button
                    type="button"
                    className="btn-secondary px-2 py-1"
                    onClick={() => {
                      setRules(rules.filter((_, i) => i !== index));
                      setStatus(`Rule “${rule.name}” removed. Not saved yet.`);
                      // The focus stays in the list: on the rule that took its place, the one before it, or Add a rule.
                      focusAfter.current = rules.length === 1 ? "add" : { index: Math.min(index, rules.length - 2), what: "edit" };
                    }}
                  >
                    Remove<span className="sr-only"> rule {rule.name}</span>
                  </button>
                </div>
              ) : null}
            </li>
          ),
        )}
      </ol>
      {editable ? (
        <div className="mt-3 space-y-3">
          {editing?.index === "new" ? (
            <RuleForm idPrefix={`${domId}-rule-new`} currency={currency} options={options} onApply={apply} onCancel={() => setEditing(undefined)} />
          ) : (
            <button ref={addRef} type="button" className="btn-secondary" onClick={() => setEditing({ index: "new" })} disabled={editing !== undefined}>
              Add a rule
            </button>
          )}
          <FormAlert message={alert} />
          {dirty || pending ? (
            <div className="flex flex-wrap items-center gap-3">
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  save();
                }}
              >
                <SubmitButton pending={pending} pendingLabel="Saving rules…">
                  Save rules
                </SubmitButton>
              </form>
              {!pending ? (
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => {
                    setRules(savedRules);
                    setRuleErrors({});
                    setAlert(undefined);
                    setStatus("Rule changes undone.");
                  }}
                >
                  Undo rule changes
                </button>
              ) : null}
              <span className="text-sm text-amber-800">Unsaved rule changes</span>
            </div>
          ) : null}
        </div>
      ) : null}
      <p role="status" aria-live="polite" className="mt-2 text-sm text-slate-700" data-testid="routing-rules-status">
        {status}
      </p>
    </section>
  );
}
