import type { ProviderExamples } from "../types";

/**
 * Provider F's example of spec 4.1. Its customer fields include the targets of its constants
 * inside the customer object, such as `address.first_name`.
 */
export const providerFExamples: ProviderExamples = {
  invoices: [
    {
      id: "f-payment",
      label: "Provider F payment",
      description:
        "payment_card_eur_hpp in EUR, a sale with tokenize, customer, service_fields, bypass_hpp and send_operation_context_on_return; the customer sits beside attributes under data.",
      direction: "payment",
      service: "payment_card_eur_hpp",
      currency: "EUR",
      attributes: {
        service: "payment_card_eur_hpp",
        currency: "EUR",
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
  ],
  paymentOptions: ["allow_partially", "bypass_hpp", "send_operation_context_on_return"],
  customerFields: [
    "reference_id",
    "name",
    "email",
    "phone",
    "date_of_birth",
    "address.country",
    "address.city",
    "address.street",
    "address.full_address",
    "address.region",
    "address.post_code",
    "address.first_name",
    "address.last_name",
    "address.email",
    "address.phone",
    "constants.customer_country_phone_code",
  ],
};
