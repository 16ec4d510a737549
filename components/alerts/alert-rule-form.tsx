"use client";

import { CheckboxSetting } from "@/components/forms/checkbox-setting";
import { Field, fieldAria } from "@/components/forms/field";
import { SettingForm, useSettingForm } from "@/components/forms/setting-form";
import { updateAlertRuleAction } from "@/lib/actions/alerts";
import { ALERT_RULES, type AlertRuleSetting, type RuleFigure } from "@/lib/alerts/rules";

/**
 * One alert rule on the Alerts page, owners only: on or off and its figures. The schema the action
 * parses with checks the fields here (loaded on the first check); the server's problems land on them.
 */
export function AlertRuleForm({ setting }: { setting: AlertRuleSetting }) {
  const spec = ALERT_RULES[setting.rule];
  const { form, ...submit } = useSettingForm(
    () => import("@/lib/alerts/schemas").then((m) => m.alertRuleSchema),
    { rule: setting.rule, enabled: setting.enabled, threshold: setting.threshold ?? undefined, windowMinutes: setting.windowMinutes ?? undefined },
    updateAlertRuleAction,
    (saved) => ({
      values: { rule: saved.rule, enabled: saved.enabled, threshold: saved.threshold ?? undefined, windowMinutes: saved.windowMinutes ?? undefined },
      status: saved.enabled ? "Saved: the rule is on." : "Saved: the rule is off; its open alerts resolve at the next check.",
    }),
  );
  const id = `alert-rule-${setting.rule}`;
  const figure = (name: "threshold" | "windowMinutes", figureSpec: RuleFigure) => {
    const fieldId = `${id}-${name}`;
    const error = form.formState.errors[name]?.message;
    return (
      <Field
        id={fieldId}
        label={figureSpec.label.toLowerCase().includes(figureSpec.unit) ? figureSpec.label : `${figureSpec.label} (${figureSpec.unit})`}
        error={error}
        help={`${figureSpec.min} to ${figureSpec.max}; ${figureSpec.defaultValue} by default.`}
      >
        <input
          className="input w-32 tabular-nums"
          type="number"
          inputMode="numeric"
          min={figureSpec.min}
          max={figureSpec.max}
          step={1}
          {...fieldAria(fieldId, error, true)}
          {...form.register(name)}
        />
      </Field>
    );
  };
  return (
    <SettingForm
      label={spec.label}
      submit={submit}
      saveLabel={`Save ${/^[A-Z]{2}/.test(spec.label) ? spec.label : spec.label.charAt(0).toLowerCase() + spec.label.slice(1)}`}
    >
      <CheckboxSetting
        id={`${id}-enabled`}
        label={spec.label}
        help={spec.watches}
        error={form.formState.errors.enabled?.message}
        register={form.register("enabled")}
      />
      {spec.threshold || spec.window ? (
        <div className="flex flex-wrap gap-4 pl-7">
          {spec.threshold ? figure("threshold", spec.threshold) : null}
          {spec.window ? figure("windowMinutes", spec.window) : null}
        </div>
      ) : null}
    </SettingForm>
  );
}
