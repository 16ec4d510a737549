import type { ProviderExamples } from "../types";

/** Provider A's examples of spec 4.1 (payment) and 4.2 (payout). */
export const providerAExamples: ProviderExamples = {
  invoices: [
    {
      id: "a-payment",
      label: "Provider A payment",
      description: "payment_card_uah_hpp in UAH, flow charge, options with allow_partially only.",
      direction: "payment",
      service: "payment_card_uah_hpp",
      currency: "UAH",
      attributes: { service: "payment_card_uah_hpp", currency: "UAH", amount: 100, flow: "charge", test_mode: true, options: { allow_partially: false } },
      // Address left out: Provider A's STREET, COUNTRY and CITY constants fill it.
      customer: { reference_id: "cust-1001", name: "Olena Kovalenko" },
      customerPlacement: "attributes",
    },
    {
      id: "a-payout",
      label: "Provider A payout",
      description: "payment_card_uah in UAH to a masked card, with attempts_limit, split_mode, allow_partially, auto_process and a full customer.",
      direction: "payout",
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
  ],
  paymentOptions: ["allow_partially"],
  customerFields: ["reference_id", "name", "address.country", "address.city", "address.street"],
};
