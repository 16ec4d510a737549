import { PROVIDERS, type InvoiceExample } from "@/lib/providers";
import { INVOICE_TYPES } from "../invoices/contract/resource-types";
import { connectionPin } from "./envelope";

/**
 * A provider's invoice example of spec 4.1 or 4.2 as the composer offers it. The examples live in
 * each provider's folder (`lib/providers/<slug>/examples.ts`); this adds whose they are.
 */
export type InvoiceTemplate = InvoiceExample & {
  /** Provider slug, e.g. provider-a. */
  provider: string;
};

/** Every provider's examples in registry order, read from the registry on each call. */
export function listTemplates(): InvoiceTemplate[] {
  return PROVIDERS.flatMap((provider) => provider.examples.invoices.map((example) => ({ ...example, provider: provider.slug })));
}

export function findTemplate(id: string): InvoiceTemplate | undefined {
  return listTemplates().find((template) => template.id === id);
}

/**
 * The request body of a template for one merchant and one reference, with the customer in its spot;
 * with a connection, as the composer sends it there: a test invoice pinned to it.
 */
export function templateEnvelope(template: InvoiceTemplate, input: { commerceAccount: string; referenceId: string; connectionId?: string }) {
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
  if (input.connectionId && attributes.test_mode === true) data.relationships = connectionPin(input.connectionId);
  return { data };
}
