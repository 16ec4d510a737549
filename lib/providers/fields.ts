import type { PemKind } from "./pem";
import type { FieldOption, FieldSpec } from "./types";

/**
 * Builders of credential fields: plain data (zod-free, so the connection forms can import the
 * registry without it). The schema a field's value is checked with is built from this data, in one
 * place: `fieldSchema` (./credentials).
 */

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

/** The longest text or secret value a field takes unless it says otherwise. */
export const DEFAULT_MAX_LENGTH = 256;
const URL_MAX_LENGTH = 2048;

function buildField(base: FieldBase, rest: Omit<FieldSpec, keyof FieldBase | "required">): FieldSpec {
  return {
    ...base,
    required: base.required ?? (base.showWhen === undefined && !base.hidden),
    ...rest,
  };
}

export function textField(base: FieldBase & TextRules): FieldSpec {
  const { maxLength, pattern, ...rest } = base;
  return buildField(rest, {
    input: "text",
    secret: false,
    maxLength: maxLength ?? DEFAULT_MAX_LENGTH,
    ...(pattern ? { pattern } : {}),
  });
}

export function secretField(base: FieldBase & TextRules): FieldSpec {
  const { maxLength, pattern, ...rest } = base;
  return buildField(rest, {
    input: "secret",
    secret: true,
    maxLength: maxLength ?? DEFAULT_MAX_LENGTH,
    ...(pattern ? { pattern } : {}),
  });
}

export function urlField(base: FieldBase): FieldSpec {
  return buildField(base, {
    input: "url",
    secret: false,
    maxLength: URL_MAX_LENGTH,
  });
}

/** Private keys default to secret: they sign requests and must never leave the server. */
export function keyFileField(base: FieldBase & { pem: PemKind; secret?: boolean }): FieldSpec {
  const { pem, secret, ...rest } = base;
  return buildField(rest, {
    input: "key_file",
    secret: secret ?? pem === "private",
    pem,
  });
}

export function selectField(base: FieldBase & { options: readonly FieldOption[] }): FieldSpec {
  const { options, ...rest } = base;
  return buildField(rest, {
    input: "select",
    secret: false,
    options,
  });
}

export function currencyField(currencies: readonly string[], help?: string): FieldSpec {
  return selectField({
    id: "currency",
    label: "Currency",
    help: help ?? "The currency agreed with the provider for this account; each connection processes one currency.",
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
    },
  );
}
