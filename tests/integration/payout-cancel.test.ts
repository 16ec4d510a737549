import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as CANCEL } from "@/app/api/commerce/payout-invoices/[id]/cancel/route";
import { POST as PROCESS } from "@/app/api/commerce/payout-invoices/[id]/process/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { rebuildRollups } from "@/lib/analytics/rollups";
import { getOverview, readPeriod } from "@/lib/analytics/overview";
import { connections, overviewRollups, webhookEvents } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { getStatusHistory } from "@/lib/invoices/status";
import { readInvoice } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { listAttempts, listPayoutParts } from "@/lib/processing/attempts";
import { cancelPayoutInvoice } from "@/lib/processing/cancel-payout";
import { processPayout } from "@/lib/processing/engine";
import { listRecordsByIdempotencyKeys, updateRecord } from "@/lib/sandbox/records";
import { and, eq } from "drizzle-orm";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { errorsOf, send } from "./helpers/send";
import { serveSandboxes } from "./helpers/sandbox-http";

/**
 * Payout cancels through Provider A's real sandbox: a payout never sent, one the provider is still
 * paying (amount .41 stays in progress), a split one with a part already paid, one finished before
 * the cancel reached the provider, and the refusals.
 */
const t = setUpTestDb();
serveSandboxes(() => t.db, { asAppUrl: true });
beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Invoice = { id: string; attributes: Record<string, unknown> };

async function payoutMerchant(mode: "test" | "live" = "test") {
  const m = await invoiceMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-a", "h2h", { vaultKey: credentialsKey(), mode });
  return m;
}

async function payout(m: InvoiceMerchant, amount: string, options: { split?: boolean; testMode?: boolean } = {}) {
  const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.amount = amount;
  body.data.attributes.test_mode = options.testMode ?? true;
  body.data.attributes.options = { auto_process: false, split_mode: options.split === true };
  body.data.attributes.fields = { card_number: "4242424242424242" };
  const created = await createInvoice(t.db, m.merchant, "payout", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice.id;
}

const cancel = (m: InvoiceMerchant, id: string, key = m.key) =>
  send<Invoice, { id: string }>(CANCEL, { id }, { method: "POST", path: `/api/commerce/payout-invoices/${id}/cancel`, key });

describe("payout cancels", () => {
  it("a payout never sent is canceled at once and can no longer be sent; payout.canceled is written", async () => {
    const m = await payoutMerchant();
    const id = await payout(m, "120.00");
    const answer = await cancel(m, id);
    expect(answer.status).toBe(200);
    expect(answer.json.data.attributes).toMatchObject({ status: "canceled", resolution: "ok", attempts: 0 });
    const process = await send(PROCESS, { id }, { method: "POST", path: `/api/commerce/payout-invoices/${id}/process`, key: m.key });
    expect(process.status).toBe(409);
    expect(await listAttempts(t.db, id)).toEqual([]);
    const events = await t.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.invoiceId, id), eq(webhookEvents.type, "payout.canceled")));
    expect(events).toHaveLength(1);
    // Canceled twice: refused, plainly.
    const again = await cancel(m, id);
    expect(again.status).toBe(409);
    expect(again.json.errors[0]).toMatchObject({ code: "not_cancelable", detail: "This payout is already canceled." });
  });

  it("a payout the provider is still paying is stopped: canceling, then canceled, and the sandbox holds it canceled", async () => {
    const m = await payoutMerchant();
    const id = await payout(m, "120.41");
    expect(await processPayout(t.db, id)).toMatchObject({ status: "process_pending" });
    const answer = await cancel(m, id);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.data.attributes).toMatchObject({ status: "canceled", resolution: "ok" });
    expect((await getStatusHistory(t.db, id)).map((entry) => entry.toStatus).slice(-2)).toEqual(["canceling", "canceled"]);
    const [attempt] = await listAttempts(t.db, id);
    expect(attempt).toMatchObject({ status: "declined", resolution: "canceled", message: "Canceled before any of it was paid." });
    const [record] = await listRecordsByIdempotencyKeys(t.db, [attempt!.idempotencyKey]);
    expect(record).toMatchObject({ status: "canceled" });
  });

  it("canceled payouts say nothing about the provider: the connection stays healthy, with no last error, and the overview counts no decline", async () => {
    const m = await payoutMerchant();
    for (const amount of ["120.41", "130.41", "140.41"]) {
      const id = await payout(m, amount);
      expect(await processPayout(t.db, id)).toMatchObject({ status: "process_pending" });
      expect((await cancel(m, id)).json.data.attributes).toMatchObject({ status: "canceled" });
    }
    const [connection] = await t.db.select().from(connections).where(eq(connections.merchantId, m.merchantId));
    expect(connection).toMatchObject({ health: "healthy", lastErrorAt: null, lastErrorMessage: null });
    const overview = await getOverview(t.db, m.merchantId, "test", readPeriod({ period: "7d" }).period);
    expect(overview.declines).toEqual([]);
    expect(
      await t.db
        .select()
        .from(webhookEvents)
        .where(and(eq(webhookEvents.merchantId, m.merchantId), eq(webhookEvents.type, "connection.health_changed"))),
    ).toEqual([]);
  });

  it("a split payout with a part already paid is partially canceled: the paid part stays, processed_amount says how much", async () => {
    const m = await payoutMerchant();
    const id = await payout(m, "30000.41", { split: true });
    expect(await processPayout(t.db, id)).toMatchObject({ status: "process_pending" });
    const answer = await cancel(m, id);
    expect(answer.json.data.attributes).toMatchObject({ status: "partially_canceled", resolution: "ok", processed_amount: "10000.13" });
    const parts = await listPayoutParts(t.db, id);
    expect(parts.map((part) => part.status)).toEqual(["succeeded", "failed", "failed"]);
    // The overview's rollups count what was paid, exactly as a rebuild from the rows does.
    const rollups = () =>
      t.db
        .select()
        .from(overviewRollups)
        .where(eq(overviewRollups.merchantId, m.merchantId))
        .orderBy(overviewRollups.grain, overviewRollups.source, overviewRollups.status, overviewRollups.resolution);
    const incremental = await rollups();
    expect(incremental.find((row) => row.source === "invoice")).toMatchObject({ status: "processed", direction: "payout", count: 1, amountMinor: 1000013n });
    await rebuildRollups(t.db, { merchantId: m.merchantId });
    expect(await rollups()).toEqual(incremental);
  });

  it("a payout the provider finished before the cancel arrived: 409 payout_final, and the invoice shows how it ended", async () => {
    const m = await payoutMerchant();
    const id = await payout(m, "120.41");
    await processPayout(t.db, id);
    const [attempt] = await listAttempts(t.db, id);
    const [record] = await listRecordsByIdempotencyKeys(t.db, [attempt!.idempotencyKey]);
    // The provider completes it on its side; the service has not heard yet.
    await updateRecord(t.db, "provider-a", record!.reference, {
      status: "completed",
      amountMinor: 12041n,
      response: { ...(record!.response as object), status: "completed", amount_processed: "120.41" },
    });
    const answer = await cancel(m, id);
    expect(answer.status).toBe(409);
    expect(answer.json.errors[0]).toMatchObject({ code: "payout_final", detail: expect.stringContaining("now processed") });
    expect(await readInvoice(t.db, id)).toMatchObject({ status: "processed", processedAmountMinor: 12041n });
    expect((await getStatusHistory(t.db, id)).map((entry) => entry.toStatus).slice(-3)).toEqual(["canceling", "process_pending", "processed"]);
  });

  it("refuses a processed payout, another merchant's payout (404), and a support credential's live payout", async () => {
    const m = await payoutMerchant();
    const id = await payout(m, "120.00");
    await processPayout(t.db, id);
    const processed = await cancel(m, id);
    expect(errorsOf(processed)).toEqual([["(none)", "not_cancelable"]]);
    expect(processed.json.errors[0]!.detail).toBe("The provider has completed this payout; nothing is left to cancel.");

    const other = await invoiceMerchant(t.db);
    const waiting = await payout(m, "120.00");
    expect((await cancel(other, waiting)).status).toBe(404);
    expect((await cancel(m, "cpoi_unknown")).status).toBe(404);
    expect((await cancel(m, "cpi_a-payment-id")).status).toBe(404);
    expect(await readInvoice(t.db, waiting)).toMatchObject({ status: "created" });

    const live = await payoutMerchant("live");
    const livePayout = await payout(live, "120.00", { testMode: false });
    expect(await cancelPayoutInvoice(t.db, live.merchantId, livePayout, { testOnly: true })).toEqual({ kind: "test_only" });
    expect(await readInvoice(t.db, livePayout)).toMatchObject({ status: "created" });
  });
});
