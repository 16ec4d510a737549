import { eq } from "drizzle-orm";
import * as returnRoute from "@/app/(public)/pay/[id]/return/route";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { credentialsKey } from "@/lib/vault/vault-key";
import { invoices, invoiceAttempts, sandboxRecords } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { findHostedInvoice } from "@/lib/pay/hosted-invoice";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { resumeHostedInvoice } from "@/lib/pay/resume";
import { answerThreeDs } from "@/lib/sandbox/three-ds";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";

/**
 * The page's data read and its Pay, through the engine, Provider
 * B's real adapter and its sandbox over HTTP; every test card, 3-D Secure pass and fail, partial
 * capture, a paid invoice not charged twice, and no full card number stored anywhere.
 */
const t = setUpTestDb();
const FULL = "4242424242424242";
const card = (number: string, extra: Record<string, unknown> = {}) => ({ number, expiry: "12/30", cvc: "123", holder: "Ada Lovelace", ...extra });

const sandbox = serveSandboxesAsAppUrl();
beforeEach(() => {
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function merchantWithB(): Promise<InvoiceMerchant> {
  const m = await invoiceMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
  return m;
}

async function bInvoice(m: InvoiceMerchant, attributes: Record<string, unknown> = {}, returnUrl?: string): Promise<string> {
  const body = bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference(), ...attributes });
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  // return_url is set on the row: the attribute belongs to the invoice API, tested there.
  if (returnUrl !== undefined) await t.db.update(invoices).set({ returnUrl }).where(eq(invoices.id, created.invoice.id));
  return created.invoice.id;
}

async function pay(id: string, input: unknown) {
  const outcome = await payHostedInvoice(t.db, id, input);
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome)}`);
  return outcome.value;
}

async function paidOutcome(id: string, input: unknown) {
  const answer = await pay(id, input);
  if (answer.kind !== "result") throw new Error(`expected a result, got ${JSON.stringify(answer)}`);
  return answer.invoice;
}

describe("findHostedInvoice (the page's data read)", () => {
  it("shows merchant, amount, currency, test mode and an open form for a new _hpp invoice", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m, {}, "https://shop.example.com/thanks");
    expect(await findHostedInvoice(t.db, id)).toEqual({
      id,
      merchantName: "Olga Ltd",
      amount: "100.50",
      currency: "EUR",
      testMode: true,
      takesCvc: true,
      returnUrl: "https://shop.example.com/thanks",
      description: null,
      canPay: true,
      final: false,
      outcome: { kind: "open" },
      // 30 minutes after creation by default.
      expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it("finds nothing for an unknown or malformed id", async () => {
    expect(await findHostedInvoice(t.db, "cpi_AAAAAAAAAAAAAAAAAAAAAA")).toBeUndefined();
    expect(await findHostedInvoice(t.db, "'; drop table invoices; --")).toBeUndefined();
  });

  it("never links to a return_url that is not a web address", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m, {}, "javascript:alert(1)");
    expect((await findHostedInvoice(t.db, id))?.returnUrl).toBeNull();
  });

  it("asks no CVC for Provider D's invoices", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-d", "h2h", { vaultKey: credentialsKey() });
    const body = bodyFor(PAYMENT_EXAMPLES["D: UZS with tokenize and service_fields"], m.account, { reference_id: newReference(), test_mode: true });
    const created = await createInvoice(t.db, m.merchant, "payment", body);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    expect((await findHostedInvoice(t.db, created.invoice.id))?.takesCvc).toBe(false);
  });
});

describe("payHostedInvoice through Provider B's sandbox", () => {
  it("4242 pays: processed, no form any more, and a second Pay is shown the result instead of charging again", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m);
    expect(await paidOutcome(id, card("4242 4242 4242 4242"))).toMatchObject({ canPay: false, final: true, outcome: { kind: "paid" } });
    expect(await paidOutcome(id, card(FULL))).toMatchObject({ outcome: { kind: "paid" } });
    expect(await t.db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, id))).toHaveLength(1);
  });

  it.each([
    ["4000000000000002", "Your bank declined the payment."],
    ["4000000000009995", "The card does not have enough funds for this payment."],
  ])("%s is declined with a plain reason", async (number, reason) => {
    const m = await merchantWithB();
    const id = await bInvoice(m);
    expect(await paidOutcome(id, card(number))).toMatchObject({ outcome: { kind: "declined", reason } });
  });

  it("0119 is a soft failure: try again later (no other connection to cascade to)", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m);
    expect(await paidOutcome(id, card("4000000000000119"))).toMatchObject({ outcome: { kind: "try_later" } });
  });

  it("partial capture: .77 with allow_partially is partly paid with the amount", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m, { amount: "100.77", options: { allow_partially: true } });
    expect(await paidOutcome(id, card(FULL))).toMatchObject({ outcome: { kind: "partly_paid", processedAmount: "75.57" } });
  });

  it("3220 asks for 3-D Secure: a pass on the sandbox page, then the return, pays", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m);
    const answer = await pay(id, card("4000000000003220"));
    if (answer.kind !== "redirect") throw new Error("expected a redirect");
    const url = new URL(answer.url);
    expect(url.pathname).toMatch(/^\/sandbox\/3ds\/provider-b\//);
    const [, , , provider, reference] = url.pathname.split("/");
    const returnUrl = url.searchParams.get("return")!;
    expect(await findHostedInvoice(t.db, id)).toMatchObject({ canPay: false, final: false, outcome: { kind: "in_progress" } });
    const answered = await answerThreeDs(
      t.db,
      { provider: provider!, reference: decodeURIComponent(reference!), answer: "pass", returnUrl },
      sandbox.baseUrl(),
    );
    expect(answered).toMatchObject({ ok: true, redirectTo: returnUrl });
    const back = await returnRoute.GET(new Request(`${sandbox.baseUrl()}/pay/${id}/return`), { params: Promise.resolve({ id }) });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(`/pay/${id}`);
    expect(await findHostedInvoice(t.db, id)).toMatchObject({ final: true, outcome: { kind: "paid" } });
  });

  it("the return route answers 404 for an invoice that is not a hosted payment", async () => {
    const back = await returnRoute.GET(new Request(`${sandbox.baseUrl()}/pay/x/return`), { params: Promise.resolve({ id: "cpi_AAAAAAAAAAAAAAAAAAAAAA" }) });
    expect(back.status).toBe(404);
  });

  it("3220 failed at 3-D Secure ends declined (auth_3ds_failed)", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m);
    const answer = await pay(id, card("4000000000003220"));
    if (answer.kind !== "redirect") throw new Error("expected a redirect");
    const url = new URL(answer.url);
    const [, , , provider, reference] = url.pathname.split("/");
    await answerThreeDs(
      t.db,
      { provider: provider!, reference: decodeURIComponent(reference!), answer: "fail", returnUrl: url.searchParams.get("return")! },
      sandbox.baseUrl(),
    );
    expect(await resumeHostedInvoice(t.db, id)).toMatchObject({ outcome: { kind: "declined", reason: "The 3-D Secure check was not passed." } });
  });

  it("a 3-D Secure answer with a foreign return URL is refused and records nothing", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m);
    const answer = await pay(id, card("4000000000003220"));
    if (answer.kind !== "redirect") throw new Error("expected a redirect");
    const [, , , provider, reference] = new URL(answer.url).pathname.split("/");
    const refused = await answerThreeDs(
      t.db,
      { provider: provider!, reference: decodeURIComponent(reference!), answer: "pass", returnUrl: "https://evil.example.com/" },
      sandbox.baseUrl(),
    );
    expect(refused).toEqual({ ok: false, reason: "bad_return_url" });
    expect(await resumeHostedInvoice(t.db, id)).toMatchObject({ outcome: { kind: "in_progress" } });
  });

  it("refuses a bad card with field errors and never calls the provider", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m);
    const outcome = await payHostedInvoice(t.db, id, card("4242424242424241", { expiry: "01/20", cvc: "1" }));
    expect(outcome).toMatchObject({ ok: false });
    if (outcome.ok) return;
    expect(outcome.problems.map((entry) => entry.path.join("."))).toEqual(["number", "expiry", "cvc"]);
    expect(JSON.stringify(outcome)).not.toContain("4242424242424241");
    expect(await t.db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, id))).toHaveLength(0);
  });

  it("answers an unknown invoice with a plain refusal", async () => {
    expect(await payHostedInvoice(t.db, "cpi_AAAAAAAAAAAAAAAAAAAAAA", card(FULL))).toEqual({
      ok: false,
      problems: [{ code: "not_found", message: "This payment page does not exist.", path: [] }],
    });
  });

  it("keeps no full card number in the invoice, its attempts or the sandbox's records", async () => {
    const m = await merchantWithB();
    const id = await bInvoice(m);
    const answer = await pay(id, card(FULL));
    const stored = JSON.stringify(
      {
        answer,
        invoice: await t.db.select().from(invoices).where(eq(invoices.id, id)),
        attempts: await t.db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, id)),
        records: await t.db.select().from(sandboxRecords),
      },
      (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value),
    );
    expect(stored).not.toContain(FULL);
  });
});
