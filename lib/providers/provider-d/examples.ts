import type { ProviderExamples } from "../types";

/** Provider D's example of spec 4.1; it sends no customer. */
export const providerDExamples: ProviderExamples = {
  invoices: [
    {
      id: "d-payment",
      label: "Provider D payment",
      description: "payment_card_uzs_hpp in UZS with tokenize and service_fields; a sale without card verification code or 3-D Secure.",
      direction: "payment",
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
  ],
  paymentOptions: ["allow_partially"],
  customerFields: [],
};
