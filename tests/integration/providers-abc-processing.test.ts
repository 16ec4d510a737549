import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { listAttempts, listPayoutParts } from "@/lib/processing/attempts";
import { payWithCard, processPayout, resumeAfterRedirect } from "@/lib/processing/engine";
import type { ConnectionKind } from "@/lib/providers";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxes } from "./helpers/sandbox-http";

/**
 * Providers A, B and C through the processing engine and their real sandboxes (this
 * file's HTTP server is APP_URL, so test-mode connections reach it): the spec 4.1 and 4.2
 * examples paid on the hosted page's entry point or processed as payouts.
 */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const card = (number: string) => ({ number, expiryMonth: 12, expiryYear: 2030, holder: "Test Holder", cvc: "123" });

type Body = { data: Record<string, unknown> & { attributes: Record<string, unknown> } };

async function exampleInvoice(m: InvoiceMerchant, template: string, change: (body: Body) => void = () => {}): Promise<InvoiceRow> {
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() }) as never as Body;
  change(body);
  const created = await createInvoice(t.db, m.merchant, template.endsWith("payout") ? "payout" : "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice;
}

async function merchantWith(provider: string, kind: ConnectionKind) {
  const m = await invoiceMerchant(t.db);
  const connection = await connect(t.db, m.merchantId, provider, kind, { vaultKey: credentialsKey() });
  return { m, connection };
}

const finished = (result: Awaited<ReturnType<typeof payWithCard>>): InvoiceRow => {
  if (result.kind === "refused") throw new Error(`refused: ${JSON.stringify(result.problems)}`);
  return result.invoice;
};

describe("Providers A, B and C through the engine and their sandboxes", () => {
  it("Provider A: the spec 4.1 payment is processed; the attempt log shows A's signed endpoint and no card number", async () => {
    const { m, connection } = await merchantWith("provider-a", "provider_account");
    const invoice = await exampleInvoice(m, "a-payment");
    expect(finished(await payWithCard(t.db, invoice.id, card("4242424242424242")))).toMatchObject({
      status: "processed",
      resolution: "ok",
      processedAmountMinor: 10_000n,
    });
    const [attempt] = await listAttempts(t.db, invoice.id);
    expect(attempt).toMatchObject({ connectionId: connection.id, status: "succeeded", providerReference: expect.stringMatching(/^A-TX-/) });
    const log = JSON.stringify(attempt!.exchanges);
    expect(log).toContain("/sandbox/provider-a/api/v2/payments");
    expect(log).not.toContain("4242424242424242");
  });

  it("Provider B: the example without a customer arrives with B's defaults (spec 2.6), echoed into the attempt log", async () => {
    const { m } = await merchantWith("provider-b", "h2h");
    const invoice = await exampleInvoice(m, "b-payment");
    expect(finished(await payWithCard(t.db, invoice.id, card("4242424242424242")))).toMatchObject({ status: "processed", processedAmountMinor: 10_050n });
    const [attempt] = await listAttempts(t.db, invoice.id);
    const answer = (attempt!.exchanges as { responseBody: Record<string, unknown> }[])[0]!.responseBody;
    expect(answer.received_customer).toMatchObject({
      name: "Customer",
      email: "customer@example.com",
      address: { country: "GB", city: "London", region: "Northeast", post_code: "E14 5AB" },
    });
    expect(answer.received_lang).toBe("en");
  });

  it("Provider C: 3-D Secure pass processes the AMD example; a fail ends the EUR example with auth_3ds_failed", async () => {
    const { m } = await merchantWith("provider-c", "provider_account");
    for (const [template, answer, expected] of [
      ["c-payment-amd", "pass", { status: "processed", processedAmountMinor: 500_000n }],
      ["c-payment-eur", "fail", { status: "process_failed", resolution: "auth_3ds_failed" }],
    ] as const) {
      const invoice = await exampleInvoice(m, template);
      const result = await payWithCard(t.db, invoice.id, card("4000000000003220"));
      expect(result).toMatchObject({ kind: "redirect", url: expect.stringContaining(`${sandbox.origin}/sandbox/3ds/provider-c/`) });
      const [attempt] = await listAttempts(t.db, invoice.id);
      await completeThreeDs(t.db, "provider-c", attempt!.providerReference!, answer);
      expect(await resumeAfterRedirect(t.db, invoice.id)).toMatchObject(expected);
    }
  });

  it("Provider A payout: split_mode pays 30,000.00 UAH in three parts, each stored with A's part reference", async () => {
    const { m } = await merchantWith("provider-a", "h2h");
    const invoice = await exampleInvoice(m, "a-payout", (body) => {
      body.data.attributes.amount = "30000.00";
      body.data.attributes.options = { split_mode: true, auto_process: false };
    });
    expect(await processPayout(t.db, invoice.id)).toMatchObject({ status: "processed", processedAmountMinor: 3_000_000n });
    const parts = await listPayoutParts(t.db, invoice.id);
    expect(parts.map((part) => [part.amountMinor, part.status])).toEqual([
      [1_000_000n, "succeeded"],
      [1_000_000n, "succeeded"],
      [1_000_000n, "succeeded"],
    ]);
    expect(parts.every((part) => /^A-PO-/.test(part.providerReference ?? ""))).toBe(true);
  });

  it("Provider A payout: a declined destination card ends the payout with its resolution", async () => {
    const { m } = await merchantWith("provider-a", "h2h");
    const invoice = await exampleInvoice(m, "a-payout", (body) => {
      body.data.attributes.fields = { card_number: "400000******0002" };
      body.data.attributes.options = { auto_process: false };
    });
    expect(await processPayout(t.db, invoice.id)).toMatchObject({ status: "process_failed", resolution: "issuer_decline" });
  });

  it("Provider A payout: allow_partially decides between partially_processed (two of three parts paid) and process_failed", async () => {
    const { m } = await merchantWith("provider-a", "h2h");
    const payout = (allowPartially: boolean) =>
      exampleInvoice(m, "a-payout", (body) => {
        body.data.attributes.amount = "30000.77";
        body.data.attributes.options = { split_mode: true, allow_partially: allowPartially, auto_process: false };
      });
    const partly = await payout(true);
    expect(await processPayout(t.db, partly.id)).toMatchObject({ status: "partially_processed", processedAmountMinor: 2_000_050n });
    expect((await listPayoutParts(t.db, partly.id)).map((part) => part.status)).toEqual(["succeeded", "succeeded", "failed"]);
    expect(await processPayout(t.db, (await payout(false)).id)).toMatchObject({ status: "process_failed", resolution: "insufficient_funds" });
  });
});
