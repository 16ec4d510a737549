import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as REFUND } from "@/app/api/commerce/payment-invoices/[id]/refunds/route";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { POST as POST_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import { POST as SIMULATE } from "@/app/api/routing/simulate/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { refunds } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_EXAMPLES, payoutExample } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { payWithCard } from "@/lib/processing/engine";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { bodyFor, connect, countInvoices, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { send, type Answer } from "./helpers/send";

/**
 * An amount is judged by how the client wrote it, whatever the JSON spelling: JSON.parse made
 * 10.01 of `10.009999999999999999` and 2 of `2.0000000000000000001`, which were then stored,
 * while the strings were refused. Now a number with more decimals than the currency has is refused
 * like its string form (422, pointer at the amount), and nothing is stored.
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"] });
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };
const AMOUNT = "/data/attributes/amount";
const PLACEHOLDER = '"amount":"__amount__"';
let m: InvoiceMerchant;

beforeAll(async () => {
  m = await invoiceMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
  await connect(t.db, m.merchantId, "provider-a", "h2h");
});
beforeEach(() => {
  fake.reset();
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** The document as JSON text with the amount written exactly as `literal`. */
function withAmount(document: unknown, literal: string): string {
  const text = JSON.stringify(document).replace(/"amount":[^,}]+/, PLACEHOLDER);
  expect(text).toContain(PLACEHOLDER);
  return text.replace(PLACEHOLDER, `"amount":${literal}`);
}

function expectAmountRefused(answer: Answer, asString: Answer) {
  expect(answer.status, answer.text).toBe(422);
  expect(answer.json.errors).toEqual([expect.objectContaining({ status: "422", code: "invalid_amount", source: { pointer: AMOUNT } })]);
  // The same refusal as the amount written as a string.
  expect(answer.json.errors).toEqual(asString.json.errors);
}

const payment = (reference: string) => bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: reference });
const postPayment = (rawBody: string) => send(POST_PAYMENT, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, rawBody });

describe("invoice create", () => {
  it.each(["10.009999999999999999", "2.000"])(
    "refuses a payment of %s written as a number, as the string, and stores nothing; 10.50 is still taken as a number",
    async (literal) => {
      const reference = newReference();
      const asNumber = await postPayment(withAmount(payment(reference), literal));
      const asString = await postPayment(withAmount(payment(reference), JSON.stringify(literal)));
      expectAmountRefused(asNumber, asString);
      expect(asNumber.json.errors[0]?.detail).toContain("at most 2 decimal places");
      expect(await countInvoices(t.db, m.merchantId, reference)).toBe(0);

      const taken = await postPayment(withAmount(payment(reference), "10.50"));
      expect(taken.status, taken.text).toBe(201);
      expect((taken.json.data as { attributes: { amount: unknown } }).attributes.amount).toBe(10.5);
    },
  );

  it("refuses a payout of 250.7500000000000001 written as a number, and stores nothing", async () => {
    const reference = newReference();
    const body = (literal: string) => withAmount(bodyFor(payoutExample(), m.account, { reference_id: reference, options: { auto_process: false } }), literal);
    const post = (rawBody: string) => send(POST_PAYOUT, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, rawBody });
    expectAmountRefused(await post(body("250.7500000000000001")), await post(body('"250.7500000000000001"')));
    expect(await countInvoices(t.db, m.merchantId, reference)).toBe(0);
  });
});

describe("refunds", () => {
  it("refuses a refund of 2.0000000000000000001 written as a number, as the string, and stores nothing", async () => {
    const created = await createInvoice(t.db, m.merchant, "payment", {
      ...(templateEnvelope(findTemplate("a-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as object),
    });
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    const paid = await payWithCard(t.db, created.invoice.id, CARD);
    if (paid.kind === "refused" || paid.invoice.status !== "processed") throw new Error("setup: not paid");
    const id = created.invoice.id;
    const refund = (literal: string) =>
      send(
        REFUND,
        { id },
        {
          method: "POST",
          path: `/api/commerce/payment-invoices/${id}/refunds`,
          key: m.key,
          rawBody: withAmount({ data: { type: "refund", attributes: { amount: 0, reference_id: newReference() } } }, literal),
        },
      );
    expectAmountRefused(await refund("2.0000000000000000001"), await refund('"2.0000000000000000001"'));
    expect(await t.db.select().from(refunds).where(eq(refunds.invoiceId, id))).toEqual([]);
  });
});

describe("the routing simulator", () => {
  it("refuses an amount of 10.009999999999999999 written as a number, as the string", async () => {
    const simulate = (literal: string) =>
      send(
        SIMULATE,
        {},
        {
          method: "POST",
          path: "/api/routing/simulate",
          key: m.key,
          rawBody: withAmount({ data: { type: "routing-simulation", attributes: { service: "payment_card_eur_hpp", test_mode: true, amount: 0 } } }, literal),
        },
      );
    const asNumber = await simulate("10.009999999999999999");
    expect(asNumber.status, asNumber.text).toBe(422);
    expect(asNumber.json.errors).toEqual([expect.objectContaining({ code: "invalid_amount", source: { pointer: AMOUNT } })]);
    expect(asNumber.json.errors).toEqual((await simulate('"10.009999999999999999"')).json.errors);
  });
});
