import { z } from "zod";
import { checkPem, type PemKind } from "./pem";
import type { FieldOption, FieldSpec } from "./types";

/** What every builder needs: the merchant must always learn where the value comes from. */
export type FieldBase = {
  id: string;
  label: string;
  help: string;
  placeholder?: string;
  required?: boolean;
  showWhen?: FieldSpec["showWhen"];
  hidden?: boolean;
};

export type TextRules = {
  maxLength?: number;
  pattern?: { regex: RegExp; message: string };
};

const DEFAULT_MAX_LENGTH = 256;

function buildField(base: FieldBase, rest: Omit<FieldSpec, keyof FieldBase | "required">): FieldSpec {
  return {
    ...base,
    required: base.required ?? (base.showWhen === undefined && !base.hidden),
    ...rest,
  };
}

function requiredString(label: string) {
  return z.string({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
  });
}

function buildTextSchema(label: string, rules: TextRules) {
  const max = rules.maxLength ?? DEFAULT_MAX_LENGTH;
  const base = requiredString(label)
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
  return rules.pattern ? base.regex(rules.pattern.regex, rules.pattern.message) : base;
}

export function textField(base: FieldBase & TextRules): FieldSpec {
  const { maxLength, pattern, ...rest } = base;
  return buildField(rest, {
    input: "text",
    secret: false,
    schema: buildTextSchema(base.label, { maxLength, pattern }),
  });
}

export function secretField(base: FieldBase & TextRules): FieldSpec {
  const { maxLength, pattern, ...rest } = base;
  return buildField(rest, {
    input: "secret",
    secret: true,
    schema: buildTextSchema(base.label, { maxLength, pattern }),
  });
}

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}

export function urlField(base: FieldBase): FieldSpec {
  return buildField(base, {
    input: "url",
    secret: false,
    schema: buildTextSchema(base.label, { maxLength: 2048 }).refine(isHttpsUrl, {
      message: `${base.label} must be an https:// URL`,
    }),
  });
}

/** Private keys default to secret: they sign requests and must never leave the server. */
export function keyFileField(base: FieldBase & { pem: PemKind; secret?: boolean }): FieldSpec {
  const { pem, secret, ...rest } = base;
  const schema = requiredString(base.label).superRefine((value, ctx) => {
    const problem = checkPem(value, pem, base.label);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  });
  return buildField(rest, {
    input: "key_file",
    secret: secret ?? pem === "private",
    pem,
    schema: schema.transform((value) => value.trim()),
  });
}

function buildEnumSchema(label: string, options: readonly FieldOption[]): z.ZodType {
  const values = options.map((option) => option.value);
  return z.enum(values as [string, ...string[]], {
    error: (issue) =>
      issue.input === undefined ? `${label} is required` : `${label} must be one of: ${values.join(", ")}`,
  });
}

export function selectField(base: FieldBase & { options: readonly FieldOption[] }): FieldSpec {
  const { options, ...rest } = base;
  return buildField(rest, {
    input: "select",
    secret: false,
    options,
    schema: buildEnumSchema(base.label, options),
  });
}

export function currencyField(currencies: readonly string[], help?: string): FieldSpec {
  return selectField({
    id: "currency",
    label: "Currency",
    help:
      help ??
      "The currency agreed with the provider for this account; each connection processes one currency.",
    options: currencies.map((code) => ({ value: code, label: code })),
  });
}

export const FEATURE_OPTIONS: readonly FieldOption[] = [
  { value: "payments", label: "Payments" },
  { value: "payouts", label: "Payouts" },
  { value: "tokenization", label: "Card tokenization" },
  { value: "recurring", label: "Recurring payments" },
];

/** Optional: a connection without features still processes the kind's plain payments. */
export function featuresField(options: readonly FieldOption[] = FEATURE_OPTIONS, help?: string): FieldSpec {
  const label = "Features";
  return buildField(
    {
      id: "features",
      label,
      help: help ?? "The features enabled on your account, as agreed with the service's account manager.",
      required: false,
    },
    {
      input: "multi_select",
      secret: false,
      options,
      schema: z
        .array(buildEnumSchema(label, options), { error: `${label} must be a list` })
        .refine((values) => new Set(values).size === values.length, {
          message: `${label} lists the same feature twice`,
        }),
    },
  );
}

/** Toggles are optional: an absent toggle means off. */
export function toggleField(base: FieldBase): FieldSpec {
  return buildField(
    { required: false, ...base },
    {
      input: "toggle",
      secret: false,
      schema: z.boolean({
        error: (issue) =>
          issue.input === undefined ? `${base.label} is required` : `${base.label} must be on or off`,
      }),
    },
  );
}
