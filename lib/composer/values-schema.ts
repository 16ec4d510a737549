import { z } from "zod";

/**
 * The shape of the composer's form values (./form-values): its own module, so the composer page
 * loads zod only with its schema, on the first check.
 */
const text = z.string();

/** Where the composer puts the customer: nowhere, or one of the three placements of spec 2.1 and 2.3. */
const CUSTOMER_PLACEMENTS = ["none", "attributes", "data", "gateway_options"] as const;
export type CustomerPlacementChoice = (typeof CUSTOMER_PLACEMENTS)[number];

const customerValuesShape = z.object({
  reference_id: text,
  name: text,
  email: text,
  phone: text,
  date_of_birth: text,
  address: z.object({
    country: text,
    city: text,
    street: text,
    full_address: text,
    region: text,
    post_code: text,
    first_name: text,
    last_name: text,
    email: text,
    phone: text,
  }),
  constants: z.object({ customer_country_phone_code: text }),
});

export const composerValuesShape = z.object({
  direction: z.enum(["payment", "payout"]),
  /** "auto": the routing order decides, as for any API invoice; "pin": the chosen connection only. */
  routing: z.enum(["auto", "pin"]),
  connection_id: text,
  /** Provider of the chosen connection, kept beside it so the schema alone knows which fields apply. */
  provider: text,
  service: text,
  currency: text,
  commerce_account: text,
  amount: text,
  amount_as_string: z.boolean(),
  reference_id: text,
  flow: text,
  test_mode: z.boolean(),
  options: z.object({
    allow_partially: z.boolean(),
    attempts_limit: text,
    split_mode: z.boolean(),
    auto_process: z.boolean(),
    bypass_hpp: z.boolean(),
    send_operation_context_on_return: z.boolean(),
  }),
  /** How a payment is paid: on the hosted page (the card typed there), or by charging a customer's saved card at creation. */
  payment_source: z.enum(["hosted", "saved_card"]),
  /** The customer whose saved cards are offered, and the chosen one (pm_…); the invoice is filed under that reference. */
  saved_card_customer: text,
  payment_method_id: text,
  send_tokenize: z.boolean(),
  tokenize: text,
  /** JSON text of the `service_fields` array; blank leaves the attribute out. */
  service_fields: text,
  card_number: text,
  customer_placement: z.enum(CUSTOMER_PLACEMENTS),
  customer: customerValuesShape,
});

export type ComposerValues = z.infer<typeof composerValuesShape>;
export type CustomerValues = ComposerValues["customer"];
