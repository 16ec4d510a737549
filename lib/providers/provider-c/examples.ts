import type { ProviderExamples } from "../types";

/** Provider C's examples of spec 4.1, one per currency; they send no customer. */
export const providerCExamples: ProviderExamples = {
  invoices: [
    {
      id: "c-payment-amd",
      label: "Provider C payment in AMD",
      description: "payment_card_amd_hpp in AMD.",
      direction: "payment",
      service: "payment_card_amd_hpp",
      currency: "AMD",
      attributes: {
        service: "payment_card_amd_hpp",
        currency: "AMD",
        amount: 5000,
        flow: "charge",
        test_mode: true,
        options: { allow_partially: false },
      },
      customerPlacement: null,
    },
    {
      id: "c-payment-eur",
      label: "Provider C payment in EUR",
      description: "payment_card_eur_hpp in EUR, adding gateway_options.cardgate.tokenize and service_fields.",
      direction: "payment",
      service: "payment_card_eur_hpp",
      currency: "EUR",
      attributes: {
        service: "payment_card_eur_hpp",
        currency: "EUR",
        amount: 49.99,
        flow: "charge",
        test_mode: true,
        options: { allow_partially: false },
        gateway_options: { cardgate: { tokenize: "" } },
        service_fields: [],
      },
      customerPlacement: null,
    },
  ],
  paymentOptions: ["allow_partially"],
  customerFields: [],
};
