import type { InvoiceDirection } from "@/lib/providers";
import type { InvoiceTemplate } from "./templates";
import type { ComposerValues, CustomerValues } from "./values-schema";

/**
 * The composer's form values: what the inputs hold (text and switches), not the request body.
 * `buildEnvelope` turns them into the body; names follow the attribute names so an API error's
 * pointer finds its input (see `pointerToField`).
 */
export type { ComposerValues, CustomerPlacementChoice } from "./values-schema";

function blankCustomer(): CustomerValues {
  return {
    reference_id: "",
    name: "",
    email: "",
    phone: "",
    date_of_birth: "",
    address: { country: "", city: "", street: "", full_address: "", region: "", post_code: "", first_name: "", last_name: "", email: "", phone: "" },
    constants: { customer_country_phone_code: "" },
  };
}

export function initialValues(input: { commerceAccount: string; referenceId: string; direction?: InvoiceDirection }): ComposerValues {
  return {
    direction: input.direction ?? "payment",
    routing: "auto",
    connection_id: "",
    provider: "",
    service: "",
    currency: "",
    commerce_account: input.commerceAccount,
    amount: "",
    amount_as_string: false,
    reference_id: input.referenceId,
    flow: "charge",
    test_mode: true,
    options: { allow_partially: false, attempts_limit: "", split_mode: false, auto_process: false, bypass_hpp: false, send_operation_context_on_return: false },
    payment_source: "hosted",
    saved_card_customer: "",
    payment_method_id: "",
    send_tokenize: false,
    tokenize: "",
    service_fields: "",
    card_number: "",
    customer_placement: "none",
    customer: blankCustomer(),
  };
}

const asText = (value: unknown): string => (value === undefined || value === null ? "" : String(value));
const asFlag = (value: unknown): boolean => value === true;

function customerValues(customer: Readonly<Record<string, unknown>> | undefined): CustomerValues {
  const out = blankCustomer();
  if (!customer) return out;
  const address = (customer.address ?? {}) as Record<string, unknown>;
  const constants = (customer.constants ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(out) as (keyof CustomerValues)[]) {
    if (key !== "address" && key !== "constants") out[key] = asText(customer[key]);
  }
  for (const key of Object.keys(out.address) as (keyof CustomerValues["address"])[]) out.address[key] = asText(address[key]);
  out.constants.customer_country_phone_code = asText(constants.customer_country_phone_code);
  return out;
}

/**
 * A template as form values, for one merchant, one reference and the connection it picked. Routing
 * stays automatic: the connection is only preselected for when the person chooses to pin.
 */
export function valuesFromTemplate(template: InvoiceTemplate, input: { commerceAccount: string; referenceId: string; connectionId: string }): ComposerValues {
  const attributes = template.attributes;
  const options = (attributes.options ?? {}) as Record<string, unknown>;
  const gateway = attributes.gateway_options as { cardgate?: { tokenize?: unknown } } | undefined;
  const fields = attributes.fields as { card_number?: unknown } | undefined;
  return {
    ...initialValues({ ...input, direction: template.direction }),
    connection_id: input.connectionId,
    provider: template.provider,
    service: template.service,
    currency: template.currency,
    amount: asText(attributes.amount),
    amount_as_string: typeof attributes.amount === "string",
    flow: asText(attributes.flow) || "charge",
    test_mode: asFlag(attributes.test_mode),
    options: {
      allow_partially: asFlag(options.allow_partially),
      attempts_limit: asText(options.attempts_limit),
      split_mode: asFlag(options.split_mode),
      auto_process: asFlag(options.auto_process),
      bypass_hpp: asFlag(options.bypass_hpp),
      send_operation_context_on_return: asFlag(options.send_operation_context_on_return),
    },
    send_tokenize: gateway?.cardgate?.tokenize !== undefined,
    tokenize: asText(gateway?.cardgate?.tokenize),
    service_fields: attributes.service_fields === undefined ? "" : JSON.stringify(attributes.service_fields),
    card_number: asText(fields?.card_number),
    customer_placement: template.customerPlacement ?? "none",
    customer: customerValues(template.customer),
  };
}
