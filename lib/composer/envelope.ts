import { getProvider, type InvoiceDirection } from "@/lib/providers";
import { INVOICE_TYPES } from "../invoices/contract/resource-types";
import { customerFieldsFor } from "./customer-fields";
import type { ComposerValues } from "./values-schema";

/** Spec 2.4: which options apply to an invoice type and provider ("Seen in"). */
export type OptionName = keyof ComposerValues["options"];

const PAYOUT_OPTIONS: readonly OptionName[] = ["attempts_limit", "split_mode", "allow_partially", "auto_process"];
/** Every payment example sends allow_partially, so it is offered before a provider is chosen. */
const DEFAULT_PAYMENT_OPTIONS: readonly OptionName[] = ["allow_partially"];
const PAYMENT_OPTIONS: readonly string[] = ["allow_partially", "bypass_hpp", "send_operation_context_on_return"];

const isPaymentOption = (name: string): name is OptionName => PAYMENT_OPTIONS.includes(name);

/** Payouts take every payout option; payments the ones the provider's examples send (its folder says which). */
export function optionsFor(direction: InvoiceDirection, provider: string): readonly OptionName[] {
  if (direction === "payout") return PAYOUT_OPTIONS;
  return getProvider(provider)?.examples.paymentOptions.filter(isPaymentOption) ?? DEFAULT_PAYMENT_OPTIONS;
}

/** A problem the body cannot even carry (unparseable JSON); reported on the form field by name. */
type BuildProblem = { field: string; message: string };

export type BuiltEnvelope = { envelope: { data: Record<string, unknown> }; problems: BuildProblem[] };

const DECIMAL = /^\d+(\.\d+)?$/;

/** Canonical decimal text, for checking that a JSON number carries exactly what was typed. */
function canonicalDecimal(value: string): string {
  const [whole = "", fraction = ""] = value.split(".");
  const digits = whole.replace(/^0+(?=\d)/, "");
  const decimals = fraction.replace(/0+$/, "");
  return decimals ? `${digits}.${decimals}` : digits;
}

/**
 * Spec 2.2 shows amounts as JSON numbers; a number is sent only when it carries the typed decimal
 * exactly (no float rounding, no exponent). Anything else goes as the typed string, so the
 * API's own amount rule judges it.
 */
export function amountValue(text: string, asString: boolean): number | string {
  const trimmed = text.trim();
  if (asString || !DECIMAL.test(trimmed)) return text;
  const number = Number(trimmed);
  return String(number) === canonicalDecimal(trimmed) ? number : text;
}

function wholeNumberOrText(text: string): number | string {
  return /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text;
}

function isBlank(value: string): boolean {
  return value.trim() === "";
}

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split(".");
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Record<string, unknown>;
  }
  node[segments.at(-1)!] = value;
}

function readAt(source: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], source);
}

/** The customer from the fields shown for the provider; blank inputs are left out (spec 2.3). */
function buildCustomer(values: Pick<ComposerValues, "customer" | "provider">): Record<string, unknown> {
  const customer: Record<string, unknown> = {};
  for (const field of customerFieldsFor(values.provider || undefined)) {
    const value = readAt(values.customer, field.path);
    if (typeof value === "string" && !isBlank(value)) setAt(customer, field.path, value);
  }
  return customer;
}

function parseServiceFields(text: string): { value?: unknown; problem?: BuildProblem } {
  if (isBlank(text)) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) return { value };
    return { problem: { field: "service_fields", message: "service_fields must be a JSON array, e.g. []" } };
  } catch {
    return { problem: { field: "service_fields", message: "service_fields is not valid JSON; write a JSON array, e.g. []" } };
  }
}

function buildOptions(values: ComposerValues): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const name of optionsFor(values.direction, values.provider)) {
    const value = values.options[name];
    if (name === "attempts_limit") {
      if (!isBlank(String(value))) options[name] = wholeNumberOrText(String(value));
    } else {
      options[name] = value;
    }
  }
  return options;
}

/** JSON:API's to-one relationship naming the saved card a payment charges at creation. */
function paymentMethodRelationship(id: string) {
  return { payment_method: { data: { type: "payment-methods", id } } };
}

/** The payment charges a customer's saved card (no hosted page, no card typed, nothing pinned). */
function chargesSavedCard(values: Pick<ComposerValues, "direction" | "payment_source">): boolean {
  return values.direction === "payment" && values.payment_source === "saved_card";
}

/** JSON:API's to-one relationship naming the invoice's connection (a pin). */
export function connectionPin(connectionId: string) {
  return { connection: { data: { type: "connection", id: connectionId } } };
}

/**
 * By default nothing is pinned: the API routes the invoice as any other (routing order, then the
 * cascade). Only when the person chooses to pin is the connection sent, so the invoice goes there
 * and nowhere else: test invoices always; live ones only when the merchant allows pinning them (the
 * API refuses them otherwise), else the routing order decides.
 */
export function pinsConnection(values: Pick<ComposerValues, "routing" | "connection_id" | "test_mode">, options: EnvelopeOptions = {}): boolean {
  return values.routing === "pin" && values.connection_id !== "" && (values.test_mode || options.pinLive === true);
}

export type EnvelopeOptions = { pinLive?: boolean };

/**
 * The request body the form describes (spec 2.1-2.4), attributes in the spec's order. Only fields
 * that apply to the invoice type and provider are included, so what the preview shows is what
 * is sent.
 */
export function buildEnvelope(values: ComposerValues, options: EnvelopeOptions = {}): BuiltEnvelope {
  const payment = values.direction === "payment";
  const problems: BuildProblem[] = [];
  const attributes: Record<string, unknown> = {
    service: values.service,
    commerce_account: values.commerce_account,
    currency: values.currency,
    amount: amountValue(values.amount, values.amount_as_string),
    reference_id: values.reference_id,
  };
  if (payment) attributes.flow = values.flow;
  attributes.test_mode = values.test_mode;
  attributes.options = buildOptions(values);
  if (!payment) attributes.fields = { card_number: values.card_number };

  const savedCard = chargesSavedCard(values);
  // A saved card's charge is filed under its customer: the reference goes with the customer object, in attributes when none was placed.
  const placement = savedCard && values.customer_placement === "none" ? "attributes" : values.customer_placement;
  let customer = values.customer_placement === "none" ? undefined : buildCustomer(values);
  if (savedCard) customer = { ...customer, reference_id: values.saved_card_customer.trim() };
  if (customer && placement === "attributes") attributes.customer = customer;
  if (payment) {
    const gateway: Record<string, unknown> = {};
    if (values.send_tokenize && !savedCard) gateway.cardgate = { tokenize: values.tokenize };
    if (customer && placement === "gateway_options") gateway.customer = customer;
    if (Object.keys(gateway).length > 0) attributes.gateway_options = gateway;
    const serviceFields = parseServiceFields(values.service_fields);
    if (serviceFields.problem) problems.push(serviceFields.problem);
    if (serviceFields.value !== undefined) attributes.service_fields = serviceFields.value;
  } else if (placement === "gateway_options") {
    problems.push({ field: "customer_placement", message: "gateway_options exists on payment invoices only; choose another spot" });
  }

  const data: Record<string, unknown> = { type: INVOICE_TYPES[values.direction], attributes };
  if (customer && placement === "data") data.customer = customer;
  if (savedCard) data.relationships = paymentMethodRelationship(values.payment_method_id);
  else if (pinsConnection(values, options)) data.relationships = connectionPin(values.connection_id);
  return { envelope: { data }, problems };
}

/** The exact text the composer posts and shows. */
export function envelopeText(envelope: BuiltEnvelope["envelope"]): string {
  return JSON.stringify(envelope, null, 2);
}
