import { describe, expect, it } from "vitest";
import { toJsonPointer } from "@/lib/problems";
import { validateInvoice } from "./validate-invoice";
import { paymentInvoiceAttributesSchema, paymentInvoiceEnvelopeSchema, payoutInvoiceEnvelopeSchema } from "./schemas";
import { PAYMENT_EXAMPLES, payoutExample, paymentWith } from "@/tests/fixtures/invoices";

describe("spec 4.1 payment examples", () => {
  it.each(Object.entries(PAYMENT_EXAMPLES))("%s parses", (_name, body) => {
    const result = validateInvoice("payment", body);
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it("keeps amounts exactly as sent", () => {
    const parsed = paymentInvoiceEnvelopeSchema.parse(paymentWith({ amount: "100.50" }));
    expect(parsed.data.attributes.amount).toBe("100.50");
  });

  it("keeps unknown customer keys for the provider", () => {
    const parsed = paymentInvoiceEnvelopeSchema.parse(paymentWith({ customer: { name: "A", loyalty_tier: "gold", address: { house: "7" } } }));
    expect(parsed.data.attributes.customer).toMatchObject({ loyalty_tier: "gold", address: { house: "7" } });
  });

  it("treats blank and null customer fields as omitted", () => {
    const body = paymentWith({ customer: { email: "", phone: null, address: { country: " " } } });
    expect(validateInvoice("payment", body).ok).toBe(true);
  });
});

describe("spec 4.2 payout example", () => {
  it("parses and strips card separators", () => {
    const parsed = payoutInvoiceEnvelopeSchema.parse(payoutExample());
    expect(parsed.data.attributes.fields.card_number).toBe("4111111111111111");
  });

  it.each(["411111******1111", "4111 11** **** 1111", "411111*****11111", "5555555555*44444"])(
    "accepts the masked form %s as spec 4.2 shows it, without separators",
    (card_number) => {
      const parsed = payoutInvoiceEnvelopeSchema.parse(payoutExample({ fields: { card_number } }));
      expect(parsed.data.attributes.fields.card_number).toBe(card_number.replace(/ /g, ""));
    },
  );

  it("parses with customer directly under data", () => {
    const body = payoutExample({ customer: undefined });
    const withDataCustomer = { data: { ...body.data, customer: { name: "Ada" } } };
    expect(validateInvoice("payout", withDataCustomer).ok).toBe(true);
  });
});

type Case = [name: string, body: unknown, pointer: string, code: string];

const paymentCases: Case[] = [
  ["unknown service", paymentWith({ service: "payment_card_usd_hpp" }), "/data/attributes/service", "unknown_service"],
  ["payout service on payment", paymentWith({ service: "payment_card_uah", currency: "UAH" }), "/data/attributes/service", "service_type_mismatch"],
  ["currency mismatch", paymentWith({ currency: "UAH" }), "/data/attributes/currency", "currency_mismatch"],
  ["three decimals", paymentWith({ amount: 1.234 }), "/data/attributes/amount", "invalid_amount"],
  ["zero amount", paymentWith({ amount: 0 }), "/data/attributes/amount", "invalid_amount"],
  ["exponent string", paymentWith({ amount: "1e3" }), "/data/attributes/amount", "invalid_amount"],
  ["lifetime below 10 s", paymentWith({ lifetime: 9 }), "/data/attributes/lifetime", "out_of_range"],
  ["lifetime over 30 days", paymentWith({ lifetime: 2_592_001 }), "/data/attributes/lifetime", "out_of_range"],
  ["fractional lifetime", paymentWith({ lifetime: 60.5 }), "/data/attributes/lifetime", "invalid_type"],
  ["lifetime as text", paymentWith({ lifetime: "600" }), "/data/attributes/lifetime", "invalid_type"],
  ["null amount", paymentWith({ amount: null }), "/data/attributes/amount", "invalid_type"],
  ["missing amount", paymentWith({ amount: undefined }), "/data/attributes/amount", "required"],
  ["missing flow", paymentWith({ flow: undefined }), "/data/attributes/flow", "required"],
  ["unknown flow", paymentWith({ flow: "capture" }), "/data/attributes/flow", "invalid_value"],
  ["typo test_mod", paymentWith({ test_mod: true }), "/data/attributes/test_mod", "unknown_attribute"],
  ["payout option on payment", paymentWith({ options: { attempts_limit: 3 } }), "/data/attributes/options/attempts_limit", "unknown_attribute"],
  ["reference_id too long", paymentWith({ reference_id: "x".repeat(256) }), "/data/attributes/reference_id", "too_long"],
  ["blank reference_id", paymentWith({ reference_id: "   " }), "/data/attributes/reference_id", "too_short"],
  ["lower-case currency", paymentWith({ currency: "eur" }), "/data/attributes/currency", "invalid_format"],
  ["test_mode as string", paymentWith({ test_mode: "true" }), "/data/attributes/test_mode", "invalid_type"],
  ["bad e-mail", paymentWith({ customer: { email: "nope" } }), "/data/attributes/customer/email", "invalid_format"],
  ["bad birth date", paymentWith({ customer: { date_of_birth: "1990-02-30" } }), "/data/attributes/customer/date_of_birth", "invalid_format"],
  ["bad country", paymentWith({ customer: { address: { country: "XX" } } }), "/data/attributes/customer/address/country", "invalid_format"],
  ["too many service_fields", paymentWith({ service_fields: Array.from({ length: 51 }, () => ({})) }), "/data/attributes/service_fields", "too_long"],
  ["wrong data.type", { data: { ...paymentWith({}).data, type: "payout-invoice" } }, "/data/type", "invalid_value"],
  ["missing data", {}, "/data", "required"],
  ["customer in two spots", { data: { ...paymentWith({ customer: { name: "A" } }).data, customer: { name: "B" } } }, "/data/customer", "customer_conflict"],
];

const payoutCases: Case[] = [
  ["mask hides a leading digit", payoutExample({ fields: { card_number: "41111*******1111" } }), "/data/attributes/fields/card_number", "invalid_card_number"],
  ["mask hides a trailing digit", payoutExample({ fields: { card_number: "411111*******111" } }), "/data/attributes/fields/card_number", "invalid_card_number"],
  ["mask too short", payoutExample({ fields: { card_number: "411111*1111" } }), "/data/attributes/fields/card_number", "invalid_card_number"],
  ["mask too long", payoutExample({ fields: { card_number: `411111${"*".repeat(10)}1111` } }), "/data/attributes/fields/card_number", "invalid_card_number"],
  ["mask with letters", payoutExample({ fields: { card_number: "411111**x***1111" } }), "/data/attributes/fields/card_number", "invalid_card_number"],
  ["Luhn failure", payoutExample({ fields: { card_number: "4111111111111112" } }), "/data/attributes/fields/card_number", "invalid_card_number"],
  ["too few digits", payoutExample({ fields: { card_number: "41111111" } }), "/data/attributes/fields/card_number", "invalid_card_number"],
  ["missing fields", payoutExample({ fields: undefined }), "/data/attributes/fields", "required"],
  ["attempts_limit 0", payoutExample({ options: { attempts_limit: 0 } }), "/data/attributes/options/attempts_limit", "out_of_range"],
  ["attempts_limit 21", payoutExample({ options: { attempts_limit: 21 } }), "/data/attributes/options/attempts_limit", "out_of_range"],
  ["payout lifetime 0", payoutExample({ lifetime: 0 }), "/data/attributes/lifetime", "out_of_range"],
  ["payment service on payout", payoutExample({ service: "payment_card_uah_hpp" }), "/data/attributes/service", "service_type_mismatch"],
  ["flow on payout", payoutExample({ flow: "charge" }), "/data/attributes/flow", "unknown_attribute"],
];

describe.each([
  ["payment", paymentCases],
  ["payout", payoutCases],
] as const)("bad %s inputs", (direction, cases) => {
  it.each(cases)("%s → %s %s", (_name, body, pointer, code) => {
    const result = validateInvoice(direction, body);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => ({ pointer: toJsonPointer(problem.path), code: problem.code }))).toContainEqual({ pointer, code });
  });
});

describe("lifetime", () => {
  it.each([10, 600, 2_592_000])("accepts %i seconds on payments and payouts", (lifetime) => {
    expect(validateInvoice("payment", paymentWith({ lifetime })).ok).toBe(true);
    expect(validateInvoice("payout", payoutExample({ lifetime })).ok).toBe(true);
  });

  it("says what the bounds are", () => {
    const result = validateInvoice("payment", paymentWith({ lifetime: 5 }));
    if (result.ok) throw new Error("expected failure");
    expect(result.problems[0]?.message).toMatch(/lifetime must be at least 10 seconds/);
  });
});

describe("error reporting", () => {
  it("reports every problem at once", () => {
    const body = paymentWith({ currency: "UAH", amount: 1.234, test_mod: true, flow: undefined });
    const result = validateInvoice("payment", body);
    if (result.ok) throw new Error("expected failure");
    expect(result.problems.map((problem) => problem.code).sort()).toEqual(["currency_mismatch", "invalid_amount", "required", "unknown_attribute"].sort());
  });

  it("gives the reference's currency detail and a typo suggestion", () => {
    const result = validateInvoice("payment", paymentWith({ service: "payment_card_uah_hpp", test_mod: true }));
    if (result.ok) throw new Error("expected failure");
    const messages = result.problems.map((problem) => problem.message);
    expect(messages).toContain("payment_card_uah_hpp takes UAH, got EUR");
    expect(messages.find((message) => message.includes("test_mod"))).toContain('Did you mean "test_mode"?');
  });

  it("lists the known services of the direction", () => {
    const result = validateInvoice("payout", payoutExample({ service: "nope" }));
    if (result.ok) throw new Error("expected failure");
    expect(result.problems[0]?.message).toContain("payment_card_uah");
    expect(result.problems[0]?.message).not.toContain("_hpp");
  });

  it("splits several unknown keys into one issue each", () => {
    const result = validateInvoice("payment", paymentWith({ foo: 1, bar: 2 }));
    if (result.ok) throw new Error("expected failure");
    expect(result.problems.map((problem) => toJsonPointer(problem.path)).sort()).toEqual(["/data/attributes/bar", "/data/attributes/foo"]);
  });

  it("caps nesting depth instead of overflowing the stack", () => {
    const deep = JSON.parse("[".repeat(30_000) + "]".repeat(30_000)) as unknown;
    const result = validateInvoice("payment", paymentWith({ service_fields: [deep] }));
    expect(result.ok ? [] : result.problems.map((problem) => problem.code)).toEqual(["too_deep"]);
    expect(result.ok ? "" : toJsonPointer(result.problems[0]?.path ?? [])).toMatch(/^\/data\/attributes\/service_fields\/0\/0\/0/);
    expect(validateInvoice("payment", paymentWith({ customer: { extra: { a: { b: { c: 1 } } } } })).ok).toBe(true);
  });

  it("never echoes a card number", () => {
    for (const card_number of ["4111111111111112", "4111-1111-1111-111x", "41111*******11111"]) {
      const result = validateInvoice("payout", payoutExample({ fields: { card_number } }));
      expect(JSON.stringify(result)).not.toMatch(/\d{6}/);
    }
  });

  it("keeps attribute-relative paths when the attributes are parsed alone", () => {
    const body = paymentWith({ currency: "UAH" }).data.attributes;
    const result = paymentInvoiceAttributesSchema.safeParse(body);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([["currency"]]);
  });
});
