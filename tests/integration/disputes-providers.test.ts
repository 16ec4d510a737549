import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as callbackRoute } from "@/app/api/callbacks/[slug]/[connectionId]/route";
import { GET as LIST_DISPUTES } from "@/app/api/commerce/disputes/route";
import { GET as GET_DISPUTE } from "@/app/api/commerce/disputes/[id]/route";
import { POST as ACCEPT } from "@/app/api/commerce/disputes/[id]/accept/route";
import { POST as SAVE_EVIDENCE } from "@/app/api/commerce/disputes/[id]/evidence/route";
import { POST as SUBMIT } from "@/app/api/commerce/disputes/[id]/submit/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { revealCredentials } from "@/lib/connections/store";
import { connections, providerCallbacks, sandboxRecords } from "@/lib/db/schema";
import { queueDisputeFollowUps } from "@/lib/disputes/tasks/dispute-follow-up";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { payWithCard } from "@/lib/processing/engine";
import type { ConnectionKind } from "@/lib/providers";
import type { SignedCallback } from "@/lib/providers/kit/provider-server";
import { getProviderServer } from "@/lib/providers/server/servers";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { createConnection } from "@/lib/connections/service";
import { WINNING_EVIDENCE_PHRASE } from "@/lib/sandbox/cards";
import { credentialsKey } from "@/lib/vault/vault-key";
import { createAttributes, parseCreate, scopeFor } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { clearQueuedJobs, runAllJobs, runJobs } from "./helpers/jobs";
import { serveSandboxes } from "./helpers/sandbox-http";
import { send } from "./helpers/send";

/**
 * A disputed test payment end to end through each of the six providers: paid on the hosted page's
 * entry point with the dispute card, the sandbox opens the dispute and sends its signed callback,
 * the service shows it (`GET /api/commerce/disputes`), the merchant's evidence is sent and the
 * sandbox decides it (the test phrase wins, other words lose), a dispute is accepted, and a
 * decision whose callback was lost is settled by the service's dispute status request.
 */
const t = setUpTestDb();
serveSandboxes(() => t.db, { asAppUrl: true });

const DISPUTE_CARD = { number: "4000000000000259", expiryMonth: 12, expiryYear: 2030, holder: "Test Holder", cvc: "123" };
const ENV = ["SANDBOX_DISPUTE_OPENS_AFTER_SECONDS", "SANDBOX_DISPUTE_DECIDES_AFTER_SECONDS"] as const;
const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
beforeAll(() => {
  for (const name of ENV) process.env[name] = "0";
});
afterAll(() => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});
beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Dispute = { id: string; attributes: { status: string; reason: string; amount: string; currency: string } };

const PROVIDERS: readonly [string, ConnectionKind, string][] = [
  ["provider-a", "provider_account", "a-payment"],
  ["provider-b", "h2h", "b-payment"],
  ["provider-c", "provider_account", "c-payment-amd"],
  ["provider-d", "h2h", "d-payment"],
  ["provider-e", "h2h", "e-payment"],
  ["provider-f", "h2h", "f-payment"],
];

/** The sandboxes' due work: disputes to open or decide, then their callbacks to the service. */
async function deliver(): Promise<void> {
  await runAllJobs(t.db, { name: "sandbox-dispute-open" });
  await runAllJobs(t.db, { name: "sandbox-dispute-decide" });
  await runAllJobs(t.db, { name: "sandbox-callback" });
}

describe.each(PROVIDERS)("%s: a disputed test payment end to end", (provider, kind, template) => {
  // One merchant and connection per provider: sandboxes that share sample identifiers notify the oldest account.
  let m: InvoiceMerchant;
  let connectionId: string;
  beforeAll(async () => {
    m = await invoiceMerchant(t.db);
    connectionId = (await connect(t.db, m.merchantId, provider, kind, { vaultKey: credentialsKey() })).id;
  });

  /** A processed payment with the dispute card, its dispute opened and notified: the dispute as the API lists it. */
  async function disputedPayment(): Promise<Dispute> {
    const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() });
    const created = await createInvoice(t.db, m.merchant, "payment", body);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    const paid = await payWithCard(t.db, created.invoice.id, DISPUTE_CARD);
    expect(paid).toMatchObject({ invoice: { status: "processed" } });
    await deliver();
    const list = await send<Dispute[]>(LIST_DISPUTES, {}, { path: `/api/commerce/disputes?filter[invoice]=${created.invoice.id}`, key: m.key });
    expect(list.status).toBe(200);
    expect(list.json.data).toHaveLength(1);
    expect(list.json.data[0]).toMatchObject({ attributes: { status: "needs_response", reason: "fraudulent" } });
    return list.json.data[0]!;
  }

  const read = async (id: string) => (await send<Dispute, { id: string }>(GET_DISPUTE, { id }, { path: `/api/commerce/disputes/${id}`, key: m.key })).json.data;

  async function submitEvidence(id: string, explanation: string) {
    const evidence = { data: { type: "dispute-evidence", attributes: { explanation, product_description: "A blue teapot" } } };
    expect(
      (
        await send<unknown, { id: string }>(
          SAVE_EVIDENCE,
          { id },
          { method: "POST", path: `/api/commerce/disputes/${id}/evidence`, key: m.key, body: evidence },
        )
      ).status,
    ).toBe(200);
    const submitted = await send<Dispute, { id: string }>(SUBMIT, { id }, { method: "POST", path: `/api/commerce/disputes/${id}/submit`, key: m.key });
    expect(submitted.status).toBe(200);
    expect(submitted.json.data).toMatchObject({ attributes: { status: "under_review" } });
  }

  it("evidence with the test phrase wins; other evidence loses, settled by a status request when the callback is lost; accepting concedes", async () => {
    const winning = await disputedPayment();
    await submitEvidence(winning.id, `Delivered and signed for (${WINNING_EVIDENCE_PHRASE}).`);
    await deliver();
    expect(await read(winning.id)).toMatchObject({ attributes: { status: "won" } });

    const losing = await disputedPayment();
    await submitEvidence(losing.id, "The customer received the parcel.");
    await runAllJobs(t.db, { name: "sandbox-dispute-decide" });
    // The sandbox's callback about the decision is lost: the dispute waits under review until the service asks.
    await clearQueuedJobs(t.db, "sandbox-callback");
    expect(await read(losing.id)).toMatchObject({ attributes: { status: "under_review" } });
    expect(await queueDisputeFollowUps(t.db)).toBeGreaterThan(0);
    await runJobs(t.db, ["dispute-follow-up"]);
    expect(await read(losing.id)).toMatchObject({ attributes: { status: "lost" } });

    const conceded = await disputedPayment();
    const accepted = await send<Dispute, { id: string }>(
      ACCEPT,
      { id: conceded.id },
      { method: "POST", path: `/api/commerce/disputes/${conceded.id}/accept`, key: m.key },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.json.data).toMatchObject({ attributes: { status: "accepted" } });
  }, 90_000);

  it("a dispute notification replayed, or with its body changed, is refused and changes nothing", async () => {
    const dispute = await disputedPayment();
    const [record] = await t.db
      .select()
      .from(sandboxRecords)
      .where(and(eq(sandboxRecords.connectionId, connectionId), eq(sandboxRecords.operation, "dispute")))
      .orderBy(desc(sandboxRecords.createdAt))
      .limit(1);
    const [connection] = await t.db.select().from(connections).where(eq(connections.id, connectionId));
    const callbacks = getProviderServer(provider)!.callbacks!;
    const sign = () =>
      callbacks.sign({
        event: callbacks.eventFromRecord(record!),
        credentials: revealCredentials(connection!, credentialsKey()),
        notificationId: `ntf_${randomUUID()}`,
        timestamp: Math.floor(Date.now() / 1000),
      });
    const post = (signed: SignedCallback) =>
      callbackRoute(new Request(`http://test/api/callbacks/${provider}/${connectionId}`, { method: "POST", headers: signed.headers, body: signed.rawBody }), {
        params: Promise.resolve({ slug: provider, connectionId }),
      });
    const signed = sign();
    expect((await post(signed)).status).toBeLessThan(400);
    const replayed = await post(signed);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ errors: [{ detail: "replayed" }] });
    const forged = sign();
    expect((await post({ ...forged, rawBody: `${forged.rawBody} ` })).status).toBe(401);
    expect(await read(dispute.id)).toMatchObject({ attributes: { status: "needs_response" } });
  });
});

it("provider-e with ignore_callback on: the payment's callback changes nothing, the dispute's notice still opens the dispute", async () => {
  const m = await invoiceMerchant(t.db);
  // Its own merchant ID: E's sandbox takes the oldest account that verifies, and sample credentials share one.
  const credentials = { ...sampleCredentials("provider-e", "h2h", "test"), merchant_id: `E-${randomBytes(6).toString("hex")}`, ignore_callback: true };
  const created = await createConnection(
    scopeFor(t.db, m.merchantId, credentialsKey()),
    parseCreate(createAttributes("provider-e", "h2h", "test", { credentials })),
  );
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
  const body = templateEnvelope(findTemplate("e-payment")!, { commerceAccount: m.account, referenceId: newReference() });
  const invoice = await createInvoice(t.db, m.merchant, "payment", body);
  if (invoice.kind !== "created") throw new Error(`setup: ${JSON.stringify(invoice)}`);
  expect(await payWithCard(t.db, invoice.invoice.id, DISPUTE_CARD)).toMatchObject({ invoice: { status: "processed" } });
  await deliver();

  const list = await send<Dispute[]>(LIST_DISPUTES, {}, { path: `/api/commerce/disputes?filter[invoice]=${invoice.invoice.id}`, key: m.key });
  expect(list.json.data).toEqual([expect.objectContaining({ attributes: expect.objectContaining({ status: "needs_response", reason: "fraudulent" }) })]);
  const stored = await t.db
    .select({ outcome: providerCallbacks.outcome, reason: providerCallbacks.reason })
    .from(providerCallbacks)
    .where(eq(providerCallbacks.connectionId, created.value.id));
  expect(stored).toEqual(
    expect.arrayContaining([
      { outcome: "ignored", reason: "ignore_callback is on: the status request decides" },
      { outcome: "applied", reason: null },
    ]),
  );
}, 60_000);
