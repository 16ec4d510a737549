import type { ProviderExamples } from "../types";

/** Provider E's example of spec 4.1, with the customer's date of birth. */
export const providerEExamples: ProviderExamples = {
  invoices: [
    {
      id: "e-payment",
      label: "Provider E payment",
      description: "payment_card_eur_hpp in EUR with customer data including date_of_birth.",
      direction: "payment",
      service: "payment_card_eur_hpp",
      currency: "EUR",
      attributes: {
        service: "payment_card_eur_hpp",
        currency: "EUR",
        amount: 75,
        flow: "charge",
        test_mode: true,
        options: { allow_partially: false },
      },
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
  ],
  paymentOptions: ["allow_partially"],
  customerFields: ["reference_id", "name", "email", "phone", "date_of_birth", "address.country", "address.city", "address.full_address"],
};
