import type { CustomerPlacement } from "@/lib/customers";
import type { InvoiceDirection } from "@/lib/providers";
import { INVOICE_TYPES } from "../invoices/contract/schemas";

/**
 * One template per provider example of spec 4.1 and 4.2, for the invoice composer. The spec
 * describes the examples rather than printing them, so names, amounts and addresses are
 * stand-ins; what each carries (service, currency, options, gateway options, service fields,
 * customer fields and spot) follows the spec's per-provider notes and 2.3's "seen with" column.
 */
export type InvoiceTemplate = {
  id: string;
  label: string;
  /** What the spec says about the example, shown beside the template. */
  description: string;
  direction: InvoiceDirection;
  /** Provider slug, e.g. provider-a. */
  provider: string;
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

const EUR_HPP = { service: "payment_card_eur_hpp", currency: "EUR" } as const;

export const INVOICE_TEMPLATES: readonly InvoiceTemplate[] = [
  {
    id: "a-payment",
    label: "Provider A payment",
    description: "payment_card_uah_hpp in UAH, flow charge, options with allow_partially only (spec 4.1).",
    direction: "payment",
    provider: "provider-a",
    service: "payment_card_uah_hpp",
    currency: "UAH",
    attributes: { service: "payment_card_uah_hpp", currency: "UAH", amount: 100, flow: "charge", test_mode: true, options: { allow_partially: false } },
    // Address left out: Provider A's STREET, COUNTRY and CITY constants fill it (spec 2.5).
    customer: { reference_id: "cust-1001", name: "Olena Kovalenko" },
    customerPlacement: "attributes",
  },
  {
    id: "a-payout",
    label: "Provider A payout",
    description: "payment_card_uah in UAH to a masked card, with attempts_limit, split_mode, allow_partially, auto_process and a full customer (spec 4.2).",
    direction: "payout",
    provider: "provider-a",
    service: "payment_card_uah",
    currency: "UAH",
    attributes: {
      service: "payment_card_uah",
      currency: "UAH",
      amount: 250.75,
      test_mode: true,
      fields: { card_number: "411111******1111" },
      options: { attempts_limit: 5, split_mode: false, allow_partially: false, auto_process: true },
    },
    customer: {
      reference_id: "cust-2001",
      name: "Taras Shevchenko",
      address: { country: "UA", city: "Kyiv", street: "Khreshchatyk St 22" },
    },
    customerPlacement: "attributes",
  },
  {
    id: "b-payment",
    label: "Provider B payment",
    description: "payment_card_eur_hpp in EUR; customer is optional, so constants and B's defaults fill it (spec 4.1, 2.6).",
    direction: "payment",
    provider: "provider-b",
    ...EUR_HPP,
    attributes: { ...EUR_HPP, amount: "100.50", flow: "charge", test_mode: true, options: { allow_partially: true } },
    customerPlacement: null,
  },
  {
    id: "c-payment-amd",
    label: "Provider C payment in AMD",
    description: "payment_card_amd_hpp in AMD (spec 4.1).",
    direction: "payment",
    provider: "provider-c",
    service: "payment_card_amd_hpp",
    currency: "AMD",
    attributes: { service: "payment_card_amd_hpp", currency: "AMD", amount: 5000, flow: "charge", test_mode: true, options: { allow_partially: false } },
    customerPlacement: null,
  },
  {
    id: "c-payment-eur",
    label: "Provider C payment in EUR",
    description: "payment_card_eur_hpp in EUR, adding gateway_options.cardgate.tokenize and service_fields (spec 4.1).",
    direction: "payment",
    provider: "provider-c",
    ...EUR_HPP,
    attributes: {
      ...EUR_HPP,
      amount: 49.99,
      flow: "charge",
      test_mode: true,
      options: { allow_partially: false },
      gateway_options: { cardgate: { tokenize: "" } },
      service_fields: [],
    },
    customerPlacement: null,
  },
  {
    id: "d-payment",
    label: "Provider D payment",
    description: "payment_card_uzs_hpp in UZS with tokenize and service_fields; a sale without card verification code or 3-D Secure (spec 4.1).",
    direction: "payment",
    provider: "provider-d",
    service: "payment_card_uzs_hpp",
    currency: "UZS",
    attributes: {
      service: "payment_card_uzs_hpp",
      currency: "UZS",
      amount: 150000,
      flow: "charge",
      test_mode: true,
      options: { allow_partially: false },
      gateway_options: { cardgate: { tokenize: "" } },
      service_fields: [],
    },
    customerPlacement: null,
  },
  {
    id: "e-payment",
    label: "Provider E payment",
    description: "payment_card_eur_hpp in EUR with customer data including date_of_birth (spec 4.1).",
    direction: "payment",
    provider: "provider-e",
    ...EUR_HPP,
    attributes: { ...EUR_HPP, amount: 75, flow: "charge", test_mode: true, options: { allow_partially: false } },
    customer: {
      reference_id: "cust-5001",
      name: "Erika Mustermann",
      email: "erika@example.com",
      phone: "+4930901820",
      date_of_birth: "1990-04-21",
      address: { country: "DE", city: "Berlin", full_address: "Heidestrasse 17, 51147 Berlin" },
    },
    customerPlacement: "attributes",
  },
  {
    id: "f-payment",
    label: "Provider F payment",
    description:
      "payment_card_eur_hpp in EUR, a sale with tokenize, customer, service_fields, bypass_hpp and send_operation_context_on_return (spec 4.1); the customer sits beside attributes under data (spec 2.1).",
    direction: "payment",
    provider: "provider-f",
    ...EUR_HPP,
    attributes: {
      ...EUR_HPP,
      amount: 120,
      flow: "charge",
      test_mode: true,
      options: { allow_partially: false, bypass_hpp: true, send_operation_context_on_return: true },
      gateway_options: { cardgate: { tokenize: "" } },
      service_fields: [],
    },
    customer: {
      reference_id: "cust-6001",
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "+442079460958",
      date_of_birth: "1985-12-10",
      address: {
        country: "GB",
        city: "London",
        street: "12 St James's Square",
        full_address: "12 St James's Square, London SW1Y 4LB",
        region: "Greater London",
        post_code: "SW1Y 4LB",
      },
    },
    customerPlacement: "data",
  },
];

export function findTemplate(id: string): InvoiceTemplate | undefined {
  return INVOICE_TEMPLATES.find((template) => template.id === id);
}

/** The request body of a template for one merchant and one reference, with the customer in its spot. */
export function templateEnvelope(template: InvoiceTemplate, input: { commerceAccount: string; referenceId: string }) {
  const attributes: Record<string, unknown> = {
    ...template.attributes,
    commerce_account: input.commerceAccount,
    reference_id: input.referenceId,
  };
  const data: Record<string, unknown> = { type: INVOICE_TYPES[template.direction], attributes };
  const customer = template.customer;
  if (customer && template.customerPlacement === "attributes") attributes.customer = customer;
  if (customer && template.customerPlacement === "data") data.customer = customer;
  if (customer && template.customerPlacement === "gateway_options") {
    const gateway = (attributes.gateway_options ?? {}) as Record<string, unknown>;
    attributes.gateway_options = { ...gateway, customer };
  }
  return { data };
}
