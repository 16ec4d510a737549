import type { z } from "zod";

/** Connection kinds of spec section 1. */
export const CONNECTION_KINDS = ["provider_account", "h2h"] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export const MODES = ["test", "live"] as const;
export type Mode = (typeof MODES)[number];

export type InvoiceDirection = "payment" | "payout";

/** A service of spec section 2.2: a payment method in one currency. */
export type ServiceSpec = {
  code: string;
  currency: string;
  direction: InvoiceDirection;
  /** `_hpp` services send the customer to a hosted payment page. */
  hostedPage: boolean;
};

export type FieldInput =
  | "text"
  | "secret"
  | "url"
  | "key_file"
  | "select"
  | "multi_select"
  | "toggle";

export type FieldOption = { value: string; label: string };

/**
 * One credential field of a connection form (spec section 5.1).
 * `schema` validates the value on its own; rules that span fields live in the kind's `refine`.
 */
export type FieldSpec = {
  id: string;
  label: string;
  help?: string;
  placeholder?: string;
  input: FieldInput;
  required: boolean;
  /** Secret values are encrypted at rest and never leave the server after saving. */
  secret: boolean;
  options?: readonly FieldOption[];
  /** Key files: which PEM block belongs here. */
  pem?: "public" | "private";
  /** Shown (and validated as required) only when another field has this value. */
  showWhen?: { field: string; equals: string | boolean };
  /** Filled by the dashboard itself (Provider E's generated key pair), never shown as an input. */
  hidden?: boolean;
  schema: z.ZodType;
};

/** Spec section 2.5: a constant fills one invoice parameter when the request lacks it. */
export type ConstantFormat =
  | "text"
  | "country"
  | "email"
  | "phone"
  | "date_of_birth"
  | "language"
  | "phone_country_code";

export type ConstantSpec = {
  name: string;
  /** Dotted path of the parameter the constant fills, exactly as the spec gives it. */
  target: string;
  label: string;
  format: ConstantFormat;
};

export type CredentialValues = Record<string, unknown>;

export type RefineIssue = { path: string[]; message: string };

export type KindSpec = {
  kind: ConnectionKind;
  label: string;
  description: string;
  fields: readonly FieldSpec[];
  /**
   * When set, this credential field decides the connection's mode (Provider F's `test_mode`):
   * the form shows no separate mode choice.
   */
  modeField?: string;
  /** Cross-field rules (Provider F key prefixes, Provider D merchant data). Paths are field ids. */
  refine?: (credentials: CredentialValues, mode: Mode) => RefineIssue[];
  /** At most one enabled connection of this kind per merchant, currency and mode (Provider D). */
  onePerCurrencyAndMode?: { reason: string };
  /** Constants of this kind (spec 2.5); empty when the provider has none. */
  constants: readonly ConstantSpec[];
  /** Built-in values used when neither request nor constant has one (spec 2.6, Provider B). */
  defaults?: Readonly<Record<string, string>>;
};

export type ProviderSpec = {
  slug: string;
  name: string;
  summary: string;
  kinds: readonly KindSpec[];
  services: readonly ServiceSpec[];
  /** Where the merchant finds each credential at the provider. */
  credentialHelp: string;
};
