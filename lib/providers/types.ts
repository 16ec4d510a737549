import type { Problem } from "../problems";

/** Connection kinds of spec section 1. */
export const CONNECTION_KINDS = ["provider_account", "h2h"] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export const MODES = ["test", "live"] as const;
export type Mode = (typeof MODES)[number];

export type InvoiceDirection = "payment" | "payout";

/** Where an invoice carries its customer (spec 2.1, 2.3): resolved by lib/customers/resolve-customer.ts. */
export type CustomerPlacement = "attributes" | "data" | "gateway_options";

/** A service of spec section 2.2: a payment method in one currency. */
export type ServiceSpec = {
  code: string;
  currency: string;
  direction: InvoiceDirection;
  /** `_hpp` services send the customer to a hosted payment page. */
  hostedPage: boolean;
};

export type FieldInput = "text" | "secret" | "url" | "key_file" | "select" | "multi_select" | "toggle";

export type FieldOption = { value: string; label: string };

/**
 * One credential field of a connection form (spec section 5.1).
 * Plain data: `fieldSchema` (./credentials) builds the check of one value from it; rules that span
 * fields live in the kind's `refine`.
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
  /** Text, secret and URL fields: the longest value taken. */
  maxLength?: number;
  /** Text and secret fields: a pattern the value must match, and what to say when it does not. */
  pattern?: { regex: RegExp; message: string };
};

/** Spec section 2.5: a constant fills one invoice parameter when the request lacks it. */
export type ConstantFormat = "text" | "country" | "email" | "phone" | "date_of_birth" | "language" | "phone_country_code";

export type ConstantSpec = {
  name: string;
  /** Dotted path of the parameter the constant fills, exactly as the spec gives it. */
  target: string;
  label: string;
  format: ConstantFormat;
};

export type CredentialValues = Record<string, unknown>;

export type KindSpec = {
  kind: ConnectionKind;
  label: string;
  description: string;
  fields: readonly FieldSpec[];
  /**
   * A legacy credential that once decided the mode (Provider F's `test_mode`, now hidden): the
   * Test/Live choice decides, but an API client that sends only this still gets its mode from it,
   * and one that sends both must make them agree.
   */
  modeField?: string;
  /** Cross-field rules (Provider F key prefixes, Provider D merchant data). Paths are field ids. */
  refine?: (credentials: CredentialValues, mode: Mode) => Problem[];
  /** A credential holding the connection's own live API address (Provider D's api_url), used instead of PROVIDER_<X>_LIVE_URL. */
  liveUrlField?: string;
  /**
   * Two key files that are one key pair (Provider A's payment key and private key, Provider E's
   * public and private key): refused at save, and named by Test connection, when they are not.
   */
  keyPair?: { publicField: string; privateField: string };
  /** At most one enabled connection of this kind per merchant, currency and mode (Provider D). */
  onePerCurrencyAndMode?: { reason: string };
  /** Constants of this kind (spec 2.5); empty when the provider has none. */
  constants: readonly ConstantSpec[];
  /** Built-in values used when neither request nor constant has one (spec 2.6, Provider B). */
  defaults?: Readonly<Record<string, string>>;
  /** Whether the hosted page asks for a CVC for this kind's payments; absent means true (Provider D takes none). */
  takesCvc?: boolean;
  /**
   * Credentials the provider refuses with one answer, never saying which of them is wrong (an
   * account ID and its secret or signature: C's shop login and password, D's merchant ID, API key
   * and secret key): Test connection names them together.
   */
  refusedTogether?: readonly string[];
};

/**
 * One invoice example of spec 4.1 or 4.2, which the composer offers as a template. The spec
 * describes the examples rather than printing them, so names, amounts and addresses are stand-ins;
 * what each carries (service, currency, options, gateway options, service fields, customer fields
 * and spot) follows the spec's notes for the provider.
 */
export type InvoiceExample = {
  id: string;
  label: string;
  /** What the spec says about the example, shown beside the template. */
  description: string;
  direction: InvoiceDirection;
  service: string;
  currency: string;
  /**
   * `data.attributes` without `commerce_account` (the merchant's own), `reference_id` (fresh for
   * every invoice) and `customer` (placed by `customerPlacement`).
   */
  attributes: Readonly<Record<string, unknown>>;
  customer?: Readonly<Record<string, unknown>>;
  /** Spec 2.1: where the example puts the customer; null when it sends none. */
  customerPlacement: CustomerPlacement | null;
};

/** What the provider's invoice examples carry; the composer offers exactly this for the provider. */
export type ProviderExamples = {
  invoices: readonly InvoiceExample[];
  /** Spec 2.4 payment options its examples send ("Seen in"); payouts take every payout option. */
  paymentOptions: readonly string[];
  /**
   * Spec 2.3 customer fields its examples show ("Seen with provider"), as paths inside the
   * customer object; empty when they send no customer, and the composer then offers the general ones.
   */
  customerFields: readonly string[];
};

export type ProviderSpec = {
  slug: string;
  name: string;
  summary: string;
  kinds: readonly KindSpec[];
  services: readonly ServiceSpec[];
  /** Where the merchant finds each credential at the provider. */
  credentialHelp: string;
  examples: ProviderExamples;
  samples: ProviderSamples;
  /** What the provider can do beyond a sale, declared once in its folder's `index.ts`. */
  capabilities: ProviderCapabilities;
};

/**
 * What a provider supports beyond a one-step sale: routing only considers connections
 * whose provider can do what an invoice asks (lib/providers/capabilities.ts). Payouts use none of it.
 */
export type ProviderCapabilities = {
  /** Saves the card behind a token of its own, charged later without the card. */
  cardTokens: boolean;
  /** Authorizes now and captures later (`flow: "authorize"`). */
  authorizeCapture: boolean;
  /** Authenticates the customer with 3-D Secure when asked (a routing rule's require_three_ds). */
  threeDSecure: boolean;
  /** Captures less than it authorized (releasing the rest); false: full capture only. */
  partialCapture: boolean;
  /** Voids an authorization, taking nothing. */
  void: boolean;
  /** How long an authorization holds at the provider before it lapses, in hours; null without authorize/capture. */
  authorizationHoldHours: number | null;
  /** Why these, in one sentence from the provider's character in the spec. */
  note: string;
};

/**
 * What a sample may need that only the server can make: a key pair, random tokens, UUIDs. The
 * server passes real ones (`lib/providers/server/sample-credentials.ts`), so a folder's samples
 * stay plain data and functions that the isomorphic registry can carry.
 */
export type SampleMakers = {
  keyPair(): { publicKeyPem: string; privateKeyPem: string };
  /** A random URL-safe token of `bytes` random bytes. */
  token(bytes: number): string;
  uuid(): string;
};

/** Valid demo credentials of one kind in one mode, for seed-demo and tests. */
export type SampleCredentialsBuilder = (mode: Mode, make: SampleMakers) => CredentialValues;

/** A provider's sample credentials per kind, declared in its folder's `samples.ts`. */
export type ProviderSamples = Partial<Record<ConnectionKind, SampleCredentialsBuilder>>;
