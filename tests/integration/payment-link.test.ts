import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";

/** `auth()` answers with whoever the test signs in; next-auth itself does not load outside Next. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("@/lib/auth/reissue", () => ({ reissueSession: async () => true }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { createPaymentLinkAction } from "@/lib/actions/payment-link";
import { publicBaseUrl } from "@/lib/config";
import { invoices, mailOutbox } from "@/lib/db/schema";
import { setUpTestDb } from "./helpers/db";
import { connect, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

/**
 * The composer's Payment link through its server action, as the form calls it: the invoice is
 * made on a hosted-page service of the currency, its link e-mailed to the customer (the outbox,
 * without SMTP_URL) and returned with a QR code; bad input names its field and stores nothing.
 */
const t = setUpTestDb();
let m: TeamMerchant;
// A recipient of this run alone: on PostgreSQL the outbox is shared with the other files the worker ran.
const valid = {
  amount: "25.00",
  currency: "EUR",
  description: "Order 1042: two blue mugs",
  email: `ada-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`,
  test_mode: true,
};

beforeAll(async () => {
  m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
});

async function stored() {
  const [invoiceRows] = await t.db.select({ n: count() }).from(invoices).where(eq(invoices.merchantId, m.merchantId));
  const [mailRows] = await t.db.select({ n: count() }).from(mailOutbox);
  return { invoices: invoiceRows!.n, mails: mailRows!.n };
}

describe("Payment link", () => {
  it("creates the invoice, e-mails its hosted page to the customer and answers the link with a QR code", async () => {
    session.userId = m.ownerId;
    const result = await createPaymentLinkAction(valid);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const link = result.data;
    expect(link.url).toBe(`${publicBaseUrl()}/pay/${link.invoiceId}`);
    expect(link).toMatchObject({ email: valid.email, emailed: true, amount: "25.00", currency: "EUR", testMode: true });
    expect(link.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.id, link.invoiceId));
    expect(invoice).toMatchObject({
      merchantId: m.merchantId,
      service: "payment_card_eur_hpp",
      amount: "25.00",
      testMode: true,
      description: valid.description,
    });
    expect(invoice!.customer).toEqual({ email: valid.email });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, valid.email));
    expect(mail!.text).toContain(link.url);
    expect(mail!.text).toContain(valid.description);
    expect(mail!.subject).toContain("25.00 EUR");
  });

  it("names the field of bad input and stores nothing", async () => {
    session.userId = m.ownerId;
    const before = await stored();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, email: "not-an-address" }, "email"],
      [{ ...valid, amount: "12.345" }, "amount"],
      [{ ...valid, amount: "" }, "amount"],
      [{ ...valid, description: "   " }, "description"],
      [{ ...valid, description: "x".repeat(256) }, "description"],
      [{ ...valid, currency: "eur" }, "currency"],
      // No connection of the merchant takes UAH on a hosted page.
      [{ ...valid, currency: "UAH" }, "currency"],
    ];
    for (const [input, field] of cases) {
      const result = await createPaymentLinkAction(input);
      expect(result.ok, JSON.stringify(input)).toBe(false);
      if (result.ok) continue;
      expect(Object.keys(result.fieldErrors), JSON.stringify(input)).toEqual([field]);
    }
    expect(await stored()).toEqual(before);
  });

  it("lets a support member send test links only, and nobody signed out", async () => {
    const before = await stored();
    session.userId = m.supportId;
    const live = await createPaymentLinkAction({ ...valid, test_mode: false });
    expect(live.ok).toBe(false);
    if (!live.ok) expect(live.fieldErrors.test_mode).toMatch(/test/i);
    session.userId = undefined;
    const signedOut = await createPaymentLinkAction(valid).catch((error: unknown) => error);
    expect((signedOut as { ok?: boolean }).ok).not.toBe(true);
    expect(await stored()).toEqual(before);

    session.userId = m.supportId;
    const test = await createPaymentLinkAction(valid);
    expect(test.ok).toBe(true);
  });
});
