import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { listDashboardAttempts } from "@/lib/invoices/read/invoice-attempts";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { processPayout } from "@/lib/processing/engine";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference } from "./helpers/invoice-fixtures";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";

/**
 * The sandbox "keeps its own record of what it received, visible on the invoice page's
 * attempt log". The page's read returns, per test-mode attempt, the real sandbox's record
 * (reached over HTTP by the real adapter), and nothing in it carries a full card number or CVC.
 */
const t = setUpTestDb();
const FULL = "4242424242424242";

serveSandboxesAsAppUrl();
beforeEach(() => {
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe("listDashboardAttempts with the sandbox's own record", () => {
  it("shows what Provider B's sandbox received for a hosted-page payment, card masked, no CVC", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const created = await createInvoice(
      t.db,
      m.merchant,
      "payment",
      bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }),
    );
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    const id = created.invoice.id;
    const paid = await payHostedInvoice(t.db, id, { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123", holder: "Ada Lovelace" });
    expect(paid).toMatchObject({ ok: true, value: { kind: "result", invoice: { outcome: { kind: "paid" } } } });

    const attempts = await listDashboardAttempts(t.db, m.merchantId, { id, currency: created.invoice.currency });
    expect(attempts).toHaveLength(1);
    const record = attempts[0]!.sandboxRecord;
    expect(record).toMatchObject({ operation: expect.any(String), status: expect.any(String), amount: "100.50", currency: "EUR" });
    expect(record!.reference).toBe(attempts[0]!.providerReference);
    const recorded = JSON.stringify(record!.request);
    expect(recorded).toContain("424242******4242");
    const page = JSON.stringify(attempts);
    expect(page).not.toContain(FULL);
    expect(page).not.toMatch(/"cvc":"123"/);
  });

  it("shows what Provider A's sandbox received for a payout, card masked", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-a", "h2h", { vaultKey: credentialsKey() });
    const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = { auto_process: false };
    body.data.attributes.fields = { card_number: FULL };
    const created = await createInvoice(t.db, m.merchant, "payout", body);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    const id = created.invoice.id;
    await processPayout(t.db, id, { cardNumber: FULL });

    const attempts = await listDashboardAttempts(t.db, m.merchantId, { id, currency: created.invoice.currency });
    expect(attempts.at(-1)!.sandboxRecord).toMatchObject({ operation: "payout", currency: created.invoice.currency });
    const page = JSON.stringify(attempts);
    expect(page).not.toContain(FULL);
  });
});
