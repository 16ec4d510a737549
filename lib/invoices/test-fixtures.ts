/**
 * Request bodies shaped after the provider examples of spec 4.1 and 4.2, for tests only. The spec
 * describes the examples rather than printing them; values such as names are stand-ins.
 */

const reference = (n: number) => `8c3f1b2e-4d5a-4e6f-9a7b-${String(n).padStart(12, "0")}`;

const payment = (attributes: Record<string, unknown>, data: Record<string, unknown> = {}) => ({
  data: { type: "payment-invoice", attributes, ...data },
});

const eurBase = (n: number) => ({
  service: "payment_card_eur_hpp",
  commerce_account: "main",
  currency: "EUR",
  amount: 100.5,
  flow: "charge",
  reference_id: reference(n),
  test_mode: true,
});

const fullCustomer = {
  reference_id: "cust-1",
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+442079460958",
  address: {
    country: "GB",
    city: "London",
    street: "1 Main St",
    full_address: "1 Main St, London",
    region: "Greater London",
    post_code: "SW1A 1AA",
  },
};

export const PAYMENT_EXAMPLES: Readonly<Record<string, unknown>> = {
  "A: payment_card_uah_hpp, UAH, allow_partially only": payment({
    service: "payment_card_uah_hpp",
    commerce_account: "main",
    currency: "UAH",
    amount: 100,
    flow: "charge",
    reference_id: reference(1),
    test_mode: true,
    options: { allow_partially: false },
  }),
  "B: EUR with customer": payment({ ...eurBase(2), options: { allow_partially: true }, customer: fullCustomer }),
  "B: EUR without customer": payment({ ...eurBase(3), amount: "100.50" }),
  "C: AMD": payment({
    service: "payment_card_amd_hpp",
    commerce_account: "main",
    currency: "AMD",
    amount: 5000,
    flow: "charge",
    reference_id: reference(4),
    test_mode: true,
    options: { allow_partially: false },
  }),
  "C: EUR with tokenize and service_fields": payment({
    ...eurBase(5),
    gateway_options: { cardgate: { tokenize: "" } },
    service_fields: [],
  }),
  "D: UZS with tokenize and service_fields": payment({
    service: "payment_card_uzs_hpp",
    commerce_account: "main",
    currency: "UZS",
    amount: 150000.25,
    flow: "charge",
    reference_id: reference(6),
    test_mode: true,
    options: { allow_partially: false },
    gateway_options: { cardgate: { tokenize: "" } },
    service_fields: [],
  }),
  "E: EUR with date_of_birth, customer reference_id as integer": payment({
    ...eurBase(7),
    customer: { ...fullCustomer, reference_id: 42, date_of_birth: "1990-04-21" },
  }),
  "F: EUR with bypass_hpp and customer under data": payment(
    {
      ...eurBase(8),
      options: { allow_partially: false, bypass_hpp: true, send_operation_context_on_return: true },
      gateway_options: { cardgate: { tokenize: "" } },
      service_fields: [],
    },
    {
      customer: {
        ...fullCustomer,
        date_of_birth: "1985-12-31",
        address: { ...fullCustomer.address, first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+442079460958" },
        constants: { customer_country_phone_code: "+44" },
      },
    },
  ),
  "F: EUR with customer inside gateway_options": payment({
    ...eurBase(9),
    options: { bypass_hpp: false, send_operation_context_on_return: false },
    gateway_options: { cardgate: { tokenize: "" }, customer: { name: "Ada Lovelace" } },
    service_fields: [],
  }),
  "minimum payment (no test_mode)": payment({
    service: "payment_card_eur_hpp",
    commerce_account: "main",
    currency: "EUR",
    amount: "0.01",
    flow: "charge",
    reference_id: reference(10),
  }),
};

/** Luhn-valid test number, typed with separators as people do. */
export const TEST_CARD = "4111 1111 1111 1111";

/** Spec 2.2/4.2 show the payout card number masked: digits with asterisks. */
export const MASKED_TEST_CARD = "411111******1111";

export const payoutExample = (overrides: Record<string, unknown> = {}) => ({
  data: {
    type: "payout-invoice",
    attributes: {
      service: "payment_card_uah",
      commerce_account: "main",
      currency: "UAH",
      amount: 250.75,
      reference_id: reference(11),
      test_mode: true,
      fields: { card_number: TEST_CARD },
      options: { attempts_limit: 5, split_mode: false, allow_partially: false, auto_process: true },
      customer: fullCustomer,
      ...overrides,
    },
  },
});

/** The payout example of spec 4.2 as shown there, with the card number masked. */
export const payoutSpecExample = (overrides: Record<string, unknown> = {}) =>
  payoutExample({ fields: { card_number: MASKED_TEST_CARD }, ...overrides });

/** The payment example of Provider B with attribute overrides, for bad-input tables. */
export const paymentWith = (overrides: Record<string, unknown>) =>
  payment({ ...eurBase(12), options: { allow_partially: true }, ...overrides });
