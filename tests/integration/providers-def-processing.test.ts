import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { sandboxRecords } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { listAttempts } from "@/lib/processing/attempts";
import { payWithCard, payWithoutHostedPage, resumeAfterRedirect } from "@/lib/processing/engine";
import { checkConnectionHealth } from "@/lib/processing/connection-test";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxes } from "./helpers/sandbox-http";

/**
 * Providers D, E and F through the processing engine and their real sandboxes (this
 * file's HTTP server is APP_URL, so test-mode connections reach it): the spec 4.1 examples paid
 * on the hosted page's entry point, 3-D Secure, bypass_hpp and Test connection.
 */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const card = (number: string, cvc?: string) => ({ number, expiryMonth: 12, expiryYear: 2030, holder: "Test Holder", ...(cvc ? { cvc } : {}) });

async function exampleInvoice(m: InvoiceMerchant, template: string): Promise<InvoiceRow> {
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() });
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice;
}

async function merchantWith(provider: string) {
  const m = await invoiceMerchant(t.db);
  const connection = await connect(t.db, m.merchantId, provider, "h2h", { vaultKey: credentialsKey() });
  return { m, connection };
}

const finished = (result: Awaited<ReturnType<typeof payWithCard>>): InvoiceRow => {
  if (result.kind === "refused") throw new Error(`refused: ${JSON.stringify(result.problems)}`);
  return result.invoice;
};

describe("Providers D, E and F through the engine and their sandboxes", () => {
  it("Provider D: the spec 4.1 sale without CVC is processed; the attempt log shows D's endpoint and no card number", async () => {
    const { m, connection } = await merchantWith("provider-d");
    const invoice = await exampleInvoice(m, "d-payment");
    expect(finished(await payWithCard(t.db, invoice.id, card("4242424242424242")))).toMatchObject({
      status: "processed",
      resolution: "ok",
      processedAmountMinor: 15_000_000n,
    });
    const [attempt] = await listAttempts(t.db, invoice.id);
    expect(attempt).toMatchObject({ connectionId: connection.id, status: "succeeded", providerReference: expect.stringMatching(/^dpay_/) });
    const log = JSON.stringify(attempt!.exchanges);
    expect(log).toContain("/sandbox/provider-d/merchant/v1/sale");
    expect(log).not.toContain("4242424242424242");
  });

  it("Provider E: 3-D Secure waits for the customer, then the status request after a pass processes the invoice", async () => {
    const { m } = await merchantWith("provider-e");
    const invoice = await exampleInvoice(m, "e-payment");
    const result = await payWithCard(t.db, invoice.id, card("4000000000003220", "123"));
    expect(result).toMatchObject({
      kind: "redirect",
      url: expect.stringContaining(`${sandbox.origin}/sandbox/3ds/provider-e/`),
      invoice: { status: "process_pending" },
    });
    const [attempt] = await listAttempts(t.db, invoice.id);
    await completeThreeDs(t.db, "provider-e", attempt!.providerReference!, "pass");
    expect(await resumeAfterRedirect(t.db, invoice.id)).toMatchObject({ status: "processed", resolution: "ok", processedAmountMinor: 7_500n });
  });

  it("Provider E: a hard decline ends the invoice with its resolution", async () => {
    const { m } = await merchantWith("provider-e");
    const invoice = await exampleInvoice(m, "e-payment");
    expect(finished(await payWithCard(t.db, invoice.id, card("4000000000000002", "123")))).toMatchObject({
      status: "process_failed",
      resolution: "issuer_decline",
    });
  });

  it("Provider F: the spec 4.1 example (bypass_hpp, send_operation_context_on_return) is processed without the hosted page; F got the invoice id and reference on the return URL", async () => {
    const { m, connection } = await merchantWith("provider-f");
    const invoice = await exampleInvoice(m, "f-payment");
    expect(finished(await payWithoutHostedPage(t.db, invoice.id))).toMatchObject({ status: "processed", processedAmountMinor: 12_000n });
    const [record] = await t.db.select().from(sandboxRecords).where(eq(sandboxRecords.connectionId, connection.id));
    const returnUrl = new URL((record!.details as { returnUrl: string }).returnUrl);
    expect(returnUrl.searchParams.get("invoice_id")).toBe(invoice.id);
    expect(returnUrl.searchParams.get("reference_id")).toBe(invoice.referenceId);
    expect(record!.details).toMatchObject({ bypassHpp: true });
  });

  it.each(["provider-d", "provider-e", "provider-f"])("Test connection of a saved %s connection reaches its sandbox and is accepted", async (provider) => {
    const { m, connection } = await merchantWith(provider);
    expect(await checkConnectionHealth(t.db, m.merchantId, connection.id)).toMatchObject({ kind: "ok" });
  });
});
