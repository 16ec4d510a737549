import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { listInvoiceCallbacks } from "@/lib/callbacks/read";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { createConnection } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import type { Db } from "@/lib/db/client";
import { invoiceStatusHistory, providerCallbacks, webhookEvents } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { listAttempts } from "@/lib/processing/attempts";
import { payWithCard, resumeAfterRedirect } from "@/lib/processing/engine";
import { readInvoice } from "@/lib/invoices/store";
import type { ConnectionKind } from "@/lib/providers";
import { PROVIDER_SERVERS } from "@/lib/providers/server/servers";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { sandboxCallbackTask } from "@/lib/providers/server/tasks/sandbox-callback";
import { sandboxNotificationId } from "@/lib/sandbox/callback-send";
import { listRecordsForConnection } from "@/lib/sandbox/records";
import { createRefund } from "@/lib/refunds/create-refund";
import { readRefund } from "@/lib/refunds/store";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { createAttributes, parseCreate, scopeFor } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { runAllJobs } from "./helpers/jobs";
import { closedPortUrl, serveSandboxes } from "./helpers/sandbox-http";

/**
 * Every sandbox, after it settles a payment, sends the service a
 * callback signed in its provider's own scheme (through the job queue, to APP_URL, which is this
 * file's HTTP server routing /api/callbacks/… to the real route module). The route verifies and
 * stores it and applies it through the state machine; Provider E's ignore_callback keeps it from
 * changing anything, so the status request decides. Refunds too: a refund a sandbox took as
 * pending settles a few seconds later and its callback settles the refund, with no status request.
 */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const card = (number: string) => ({ number, expiryMonth: 12, expiryYear: 2030, holder: "Test Holder", cvc: "123" });

/** The kind and the spec 4.1 payment example each provider is paid with here; a provider with a server and no entry fails the test. */
const PAYMENT_SETUP: Record<string, { kind: ConnectionKind; template: string }> = {
  "provider-a": { kind: "provider_account", template: "a-payment" },
  "provider-b": { kind: "h2h", template: "b-payment" },
  "provider-c": { kind: "provider_account", template: "c-payment-amd" },
  "provider-d": { kind: "h2h", template: "d-payment" },
  "provider-e": { kind: "h2h", template: "e-payment" },
  "provider-f": { kind: "h2h", template: "f-payment" },
};

async function exampleInvoice(m: InvoiceMerchant, template: string): Promise<InvoiceRow> {
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() });
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice;
}

const finished = (result: Awaited<ReturnType<typeof payWithCard>>): InvoiceRow => {
  if (result.kind === "refused") throw new Error(`refused: ${JSON.stringify(result.problems)}`);
  return result.invoice;
};

function callbacksOf(db: Db, invoiceId: string) {
  return db.select().from(providerCallbacks).where(eq(providerCallbacks.invoiceId, invoiceId));
}

/** A refund of `amount` through the service, as the API would ask for it. */
async function refund(m: InvoiceMerchant, invoiceId: string, amount: string) {
  const body = { data: { type: "refund", attributes: { reference_id: newReference(), amount } } };
  const created = await createRefund(t.db, { merchantId: m.merchantId, invoiceId, body, testOnly: false, createdBy: "test" });
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.refund;
}

async function deliverCallbacks(): Promise<void> {
  await runAllJobs(t.db, { name: "sandbox-callback" });
}

/**
 * A Provider E connection of this merchant with ignore_callback as given, under its own merchant ID
 * (sample credentials share one, and E's sandbox would take the oldest account that verifies).
 */
async function connectE(m: InvoiceMerchant, ignoreCallback: boolean) {
  const credentials = {
    ...sampleCredentials("provider-e", "h2h", "test"),
    merchant_id: `E-${randomBytes(6).toString("hex")}`,
    ignore_callback: ignoreCallback,
  };
  const created = await createConnection(
    scopeFor(t.db, m.merchantId, credentialsKey()),
    parseCreate(createAttributes("provider-e", "h2h", "test", { credentials })),
  );
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
  return created.value;
}

describe("Provider callbacks from the sandboxes", () => {
  it("every provider with a server has a payment set up here", () => {
    expect(PROVIDER_SERVERS.map((server) => server.slug).filter((slug) => !PAYMENT_SETUP[slug])).toEqual([]);
  });

  for (const server of PROVIDER_SERVERS) {
    it(`${server.slug}: a settled payment is followed by a signed callback that the route verifies and stores against the attempt`, async () => {
      const setup = PAYMENT_SETUP[server.slug]!;
      const m = await invoiceMerchant(t.db);
      const connection = await connect(t.db, m.merchantId, server.slug, setup.kind, { vaultKey: credentialsKey() });
      const invoice = await exampleInvoice(m, setup.template);
      const paid = finished(await payWithCard(t.db, invoice.id, card("4242424242424242")));
      expect(paid.status).toBe("processed");
      expect(await callbacksOf(t.db, invoice.id)).toEqual([]);

      await deliverCallbacks();
      const [attempt] = await listAttempts(t.db, invoice.id);
      const stored = await callbacksOf(t.db, invoice.id);
      // The synchronous answer settled the attempt first: the callback is verified and stored, and changes nothing.
      expect(stored).toEqual([
        expect.objectContaining({
          provider: server.slug,
          connectionId: connection.id,
          merchantId: m.merchantId,
          attemptId: attempt!.id,
          outcome: "superseded",
          reason: "the attempt is already succeeded",
          reported: expect.objectContaining({ status: "succeeded", providerReference: attempt!.providerReference }),
          notificationId: expect.stringMatching(/^ntf_/),
        }),
      ]);
      for (const header of server.callbacks!.headers) expect(Object.keys(stored[0]!.headers)).toContain(header);
      expect(stored[0]!.body).not.toContain("4242424242424242");
      expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "processed", processedAmountMinor: paid.processedAmountMinor });
    });
  }

  for (const server of PROVIDER_SERVERS) {
    it(`${server.slug}: a refund taken as pending is settled by the sandbox's callback; a declined refund's callback changes nothing`, async () => {
      const setup = PAYMENT_SETUP[server.slug]!;
      const m = await invoiceMerchant(t.db);
      const connection = await connect(t.db, m.merchantId, server.slug, setup.kind, { vaultKey: credentialsKey() });
      const invoice = await exampleInvoice(m, setup.template);
      expect(finished(await payWithCard(t.db, invoice.id, card("4242424242424242"))).status).toBe("processed");
      await deliverCallbacks();

      // .31: the provider takes it as pending; nothing is settled until the sandbox settles it.
      const pending = await refund(m, invoice.id, "1.31");
      expect(pending).toMatchObject({ status: "pending", connectionId: connection.id });
      await deliverCallbacks();
      expect(await readRefund(t.db, pending.id)).toMatchObject({ status: "pending" });
      expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "refunding" });

      // The sandbox settles it (its own job, seconds later) and notifies; no status request is made.
      await runAllJobs(t.db, { name: "sandbox-refund-settle" });
      await deliverCallbacks();
      expect(await readRefund(t.db, pending.id)).toMatchObject({ status: "succeeded", resolution: "ok", settledAt: expect.any(Date) });
      expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "partially_refunded", refundedAmountMinor: 131n });
      const refundCallbacks = (await callbacksOf(t.db, invoice.id)).filter((row) => row.reported?.refund === pending.id);
      expect(refundCallbacks).toEqual([
        expect.objectContaining({
          provider: server.slug,
          connectionId: connection.id,
          merchantId: m.merchantId,
          attemptId: null,
          outcome: "applied",
          reason: null,
          reported: expect.objectContaining({ status: "succeeded", providerReference: pending.providerReference }),
        }),
      ]);
      const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.invoiceId, invoice.id));
      expect(events.filter((event) => event.type === "refund.succeeded")).toHaveLength(1);

      // .32: declined in the answer; the callback that follows finds it settled and changes nothing.
      const declined = await refund(m, invoice.id, "1.32");
      expect(declined).toMatchObject({ status: "failed" });
      await deliverCallbacks();
      expect((await callbacksOf(t.db, invoice.id)).filter((row) => row.reported?.refund === declined.id)).toEqual([
        expect.objectContaining({ outcome: "superseded", reason: "the refund is already failed", reported: expect.objectContaining({ status: "declined" }) }),
      ]);
      expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "partially_refunded", refundedAmountMinor: 131n });
      // The invoice page lists both, each naming its refund.
      expect((await listInvoiceCallbacks(t.db, m.merchantId, invoice.id)).filter((view) => view.refundId).map((view) => [view.refundId, view.outcome])).toEqual(
        [
          [pending.id, "applied"],
          [declined.id, "superseded"],
        ],
      );
    });
  }

  it("the sandbox's callback job throws when the service cannot be reached (so the queue retries) and does not retry a refusal", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const invoice = await exampleInvoice(m, "b-payment");
    await payWithCard(t.db, invoice.id, card("4242424242424242"));
    const [record] = await listRecordsForConnection(t.db, connection.id);
    const data = { provider: "provider-b", connectionId: connection.id, reference: record!.reference, notificationId: sandboxNotificationId(record!) };
    const job = { id: "job-test", name: "sandbox-callback" as const, retryCount: 0 };

    process.env.APP_URL = await closedPortUrl();
    try {
      await expect(sandboxCallbackTask.handler(t.db, data, job)).rejects.toThrow();
    } finally {
      process.env.APP_URL = sandbox.origin;
    }
    expect(await callbacksOf(t.db, invoice.id)).toEqual([]);

    await sandboxCallbackTask.handler(t.db, data, job);
    expect(await callbacksOf(t.db, invoice.id)).toEqual([expect.objectContaining({ outcome: "superseded", notificationId: data.notificationId })]);

    // Run twice (a worker killed after sending): the service refuses the replay; the job ends, logged, not retried.
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    await expect(sandboxCallbackTask.handler(t.db, data, job)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith("sandbox callback refused", expect.objectContaining({ status: 401, notificationId: data.notificationId }));
    expect((await callbacksOf(t.db, invoice.id)).map((row) => row.outcome).sort()).toEqual(["rejected", "superseded"]);
  });

  it("3-D Secure on Provider B: after the customer passes, the sandbox's callback (not the return) processes the invoice", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const invoice = await exampleInvoice(m, "b-payment");
    const result = await payWithCard(t.db, invoice.id, card("4000000000003220"));
    expect(result).toMatchObject({ kind: "redirect", invoice: { status: "process_pending" } });
    const [attempt] = await listAttempts(t.db, invoice.id);
    expect(await completeThreeDs(t.db, "provider-b", attempt!.providerReference!, "pass")).toMatchObject({ kind: "completed" });
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_pending" });

    await deliverCallbacks();
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "processed", resolution: "ok", processedAmountMinor: 10_050n });
    expect(await callbacksOf(t.db, invoice.id)).toEqual([
      expect.objectContaining({ outcome: "applied", reason: null, attemptId: attempt!.id, reported: expect.objectContaining({ status: "succeeded" }) }),
    ]);
    const history = await t.db
      .select()
      .from(invoiceStatusHistory)
      .where(and(eq(invoiceStatusHistory.invoiceId, invoice.id), eq(invoiceStatusHistory.toStatus, "processed")));
    expect(history).toHaveLength(1);
    const [after] = await listAttempts(t.db, invoice.id);
    expect(after).toMatchObject({ status: "succeeded" });
  });

  it("3-D Secure failed on Provider B: the callback ends the invoice with auth_3ds_failed", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const invoice = await exampleInvoice(m, "b-payment");
    await payWithCard(t.db, invoice.id, card("4000000000003220"));
    const [attempt] = await listAttempts(t.db, invoice.id);
    await completeThreeDs(t.db, "provider-b", attempt!.providerReference!, "fail");
    await deliverCallbacks();
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_failed", resolution: "auth_3ds_failed" });
    expect(await callbacksOf(t.db, invoice.id)).toEqual([
      expect.objectContaining({ outcome: "applied", reported: expect.objectContaining({ status: "declined", resolution: "auth_3ds_failed" }) }),
    ]);
  });

  it("Provider E with ignore_callback off: the 3-D Secure pass callback settles the invoice", async () => {
    const m = await invoiceMerchant(t.db);
    await connectE(m, false);
    const invoice = await exampleInvoice(m, "e-payment");
    expect(await payWithCard(t.db, invoice.id, card("4000000000003220"))).toMatchObject({ kind: "redirect", invoice: { status: "process_pending" } });
    const [attempt] = await listAttempts(t.db, invoice.id);
    await completeThreeDs(t.db, "provider-e", attempt!.providerReference!, "pass");
    await deliverCallbacks();
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "processed", resolution: "ok", processedAmountMinor: 7_500n });
    expect(await callbacksOf(t.db, invoice.id)).toEqual([expect.objectContaining({ provider: "provider-e", outcome: "applied" })]);
  });

  it("Provider E with ignore_callback on: the success callback is stored as ignored, the invoice waits, and the status request finalises it", async () => {
    const m = await invoiceMerchant(t.db);
    await connectE(m, true);
    const invoice = await exampleInvoice(m, "e-payment");
    await payWithCard(t.db, invoice.id, card("4000000000003220"));
    const [attempt] = await listAttempts(t.db, invoice.id);
    await completeThreeDs(t.db, "provider-e", attempt!.providerReference!, "pass");
    await deliverCallbacks();
    expect(await callbacksOf(t.db, invoice.id)).toEqual([
      expect.objectContaining({
        outcome: "ignored",
        reason: "ignore_callback is on: the status request decides",
        attemptId: attempt!.id,
        reported: expect.objectContaining({ status: "succeeded" }),
      }),
    ]);
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_pending" });
    expect((await listAttempts(t.db, invoice.id))[0]).toMatchObject({ status: "pending" });

    expect(await resumeAfterRedirect(t.db, invoice.id)).toMatchObject({ status: "processed", resolution: "ok", processedAmountMinor: 7_500n });

    // The invoice page's read: this merchant sees the callback; another merchant, nothing.
    expect(await listInvoiceCallbacks(t.db, m.merchantId, invoice.id)).toEqual([
      expect.objectContaining({ provider: "provider-e", providerName: "Provider E", outcome: "ignored", reportedStatus: "succeeded", attemptId: attempt!.id }),
    ]);
    const other = await invoiceMerchant(t.db);
    expect(await listInvoiceCallbacks(t.db, other.merchantId, invoice.id)).toEqual([]);
  });
});
