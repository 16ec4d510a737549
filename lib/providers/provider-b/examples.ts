import type { ProviderExamples } from "../types";

/** Provider B's example of spec 4.1; its customer is optional. */
export const providerBExamples: ProviderExamples = {
  invoices: [
    {
      id: "b-payment",
      label: "Provider B payment",
      description: "payment_card_eur_hpp in EUR; customer is optional, so constants and B's defaults fill it.",
      direction: "payment",
      service: "payment_card_eur_hpp",
      currency: "EUR",
      attributes: {
        service: "payment_card_eur_hpp",
        currency: "EUR",
        amount: "100.50",
        flow: "charge",
        test_mode: true,
        options: { allow_partially: true },
      },
      customerPlacement: null,
    },
  ],
  paymentOptions: ["allow_partially"],
  customerFields: ["reference_id", "name", "email", "phone", "address.country", "address.city", "address.full_address", "address.region", "address.post_code"],
};
