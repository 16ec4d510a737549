import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as callbackRoute } from "@/app/api/callbacks/[slug]/[connectionId]/route";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { deleteConnection, editConnection, setConnectionEnabled } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import { connections, invoices, providerCallbacks, sandboxRecords } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { updateMerchantSettings } from "@/lib/merchants/settings";
import { listAttempts } from "@/lib/processing/attempts";
import { checkConnectionHealth } from "@/lib/processing/connection-test";
import { reconcileAttempt } from "@/lib/processing/reconcile";
import { cancelPayoutInvoice } from "@/lib/processing/cancel-payout";
import { processPayout } from "@/lib/processing/engine";
import { createRefund } from "@/lib/refunds/create-refund";
import { followUpRefund } from "@/lib/refunds/send";
import { readRefund } from "@/lib/refunds/store";
import { listRecordsForConnection, type SandboxRecord } from "@/lib/sandbox/records";
import { getProviderServer } from "@/lib/providers/server/servers";
import { findConnectionRow } from "@/lib/connections/queries";
import { revealCredentials } from "@/lib/connections/store";
import type { Mode } from "@/lib/providers";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { setUpTestDb } from "./helpers/db";
import { scopeFor } from "./helpers/connection-fixtures";
import { payOnHostedPage } from "./helpers/hosted-page";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxes } from "./helpers/sandbox-http";

/**
 * A test invoice is only ever settled by a sandbox and a live one only by a live provider: a
 * connection's mode is fixed when it is created, and before every provider call (Pay, status
 * request) and every callback the engine checks that the invoice's mode, the connection's mode and
 * the address it is about to call agree. Rows whose mode changed before it was fixed are made here
 * with SQL: no entry point can make them any more.
 */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
const SERVICE = "payment_card_eur_hpp";
const PROVIDERS = ["provider-b", "provider-c", "provider-f"] as const;
const KIND = { "provider-b": "h2h", "provider-c": "provider_account", "provider-f": "h2h" } as const;
const CARD = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "737", holder: "Heidi Muster" };

/** A stand-in for every live provider: it answers 503 to anything (a soft failure), and counts. */
let live: Server;
let liveOrigin = "";
let liveRequests = 0;
const liveVariables = ["PROVIDER_B_LIVE_URL", "PROVIDER_C_LIVE_URL", "PROVIDER_F_LIVE_URL"];
beforeAll(async () => {
  live = createServer((request, response) => {
    liveRequests += 1;
    request.resume();
    response.writeHead(503, { "content-type": "application/json" }).end('{"error":"down"}');
  });
  await new Promise<void>((resolve) => live.listen(0, "127.0.0.1", resolve));
  liveOrigin = `http://127.0.0.1:${(live.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => live.close(() => resolve())));

/** Every URL the server fetched, in order. */
const fetched: string[] = [];
beforeEach(() => {
  for (const name of liveVariables) process.env[name] = liveOrigin;
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    return realFetch(input, init);
  });
});
afterEach(() => {
  for (const name of liveVariables) delete process.env[name];
  vi.restoreAllMocks();
  fetched.length = 0;
});

const sandboxRoot = () => `${sandbox.origin}/sandbox/`;

async function newInvoice(m: InvoiceMerchant, testMode: boolean, pin?: string) {
  const body = templateEnvelope(findTemplate("b-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: Record<string, unknown> & { attributes: Record<string, unknown> };
  };
  body.data.attributes.test_mode = testMode;
  if (pin) body.data.relationships = { connection: { data: { type: "connection", id: pin } } };
  return createInvoice(t.db, m.merchant, "payment", body);
}

/** As a row whose mode was changed before modes were fixed at creation. */
const flipMode = (id: string, mode: Mode) => t.db.update(connections).set({ mode }).where(eq(connections.id, id));

/** Provider B's sandbox notification that one of its records (a payment or a refund) succeeded, signed as B signs it and posted to the callback route. */
async function postBSucceeded(merchantId: string, connectionId: string, record: SandboxRecord, notificationId: string): Promise<Response> {
  const callbacks = getProviderServer("provider-b")!.callbacks!;
  const credentials = revealCredentials((await findConnectionRow(t.db, merchantId, connectionId))!, credentialsKey());
  const signed = callbacks.sign({
    event: callbacks.eventFromRecord({ ...record, status: "succeeded" }),
    credentials,
    notificationId,
    timestamp: Math.floor(Date.now() / 1000),
  });
  const request = new Request(`${sandbox.origin}/api/callbacks/provider-b/${connectionId}`, { method: "POST", headers: signed.headers, body: signed.rawBody });
  return callbackRoute(request, { params: Promise.resolve({ slug: "provider-b", connectionId }) });
}

const recordsOf = (connectionId: string) => t.db.select().from(sandboxRecords).where(eq(sandboxRecords.connectionId, connectionId));

describe("a live invoice is never settled by a sandbox", () => {
  it("Pay on a live invoice whose connection became test ends the attempt as mode_mismatch and calls nothing", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live", vaultKey: credentialsKey() });
    const created = await newInvoice(m, false);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    await flipMode(connection.id, "test");

    const answer = await payOnHostedPage(created.invoice.id, CARD);
    expect(answer).toMatchObject({ status: 200, invoice: { outcome: { kind: "try_later" } } });
    const [attempt] = await listAttempts(t.db, created.invoice.id);
    expect(attempt).toMatchObject({ connectionId: connection.id, status: "soft_failed", resolution: "mode_mismatch", exchanges: [] });
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, created.invoice.id));
    expect([row!.status, row!.resolution]).toEqual(["process_failed", "mode_mismatch"]);
    expect(fetched).toEqual([]);
    expect(await recordsOf(connection.id)).toEqual([]);
  });

  it("a live connection whose provider address is this server's sandbox calls nothing: Pay, and Test connection", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live", vaultKey: credentialsKey() });
    process.env.PROVIDER_B_LIVE_URL = `${sandbox.origin}/sandbox/provider-b`;
    const created = await newInvoice(m, false);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);

    await payOnHostedPage(created.invoice.id, CARD);
    const [attempt] = await listAttempts(t.db, created.invoice.id);
    expect(attempt).toMatchObject({
      status: "soft_failed",
      resolution: "mode_mismatch",
      message: expect.stringContaining("live-mode connection may not call this server"),
    });
    expect(await checkConnectionHealth(t.db, m.merchantId, connection.id)).toEqual({
      kind: "unreachable",
      message: "A live-mode connection may not call this server or its sandboxes; nothing was sent.",
    });
    expect(fetched).toEqual([]);
  });

  it("a test invoice waiting at 3-D Secure whose connection became live: its status request calls nothing and the sandbox's callback is not applied", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "test", vaultKey: credentialsKey() });
    const created = await newInvoice(m, true);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    await payOnHostedPage(created.invoice.id, { ...CARD, number: "4000 0000 0000 3220" });
    const [waiting] = await listAttempts(t.db, created.invoice.id);
    expect(waiting).toMatchObject({ status: "pending" });
    const [record] = await recordsOf(connection.id);
    expect(record).toBeDefined();

    await flipMode(connection.id, "live");
    fetched.length = 0;
    await reconcileAttempt(t.db, { invoiceId: created.invoice.id, attemptId: waiting!.id }, { reason: "test" });
    expect(fetched).toEqual([]);
    expect(liveRequests).toBe(0);

    // The sandbox's own notification about the payment, signed as B signs it: verified, and refused.
    expect((await postBSucceeded(m.merchantId, connection.id, record!, "n-mode-1")).status).toBe(404);
    const [stored] = await t.db
      .select()
      .from(providerCallbacks)
      .where(and(eq(providerCallbacks.connectionId, connection.id)));
    expect(stored).toMatchObject({
      outcome: "rejected",
      reason: expect.stringMatching(/^mode_mismatch: A test invoice cannot go through a live-mode connection/),
    });
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, created.invoice.id));
    expect(row!.status).toBe("process_pending");
  });
});

describe("money coming back never crosses modes either", () => {
  async function refund(m: InvoiceMerchant, invoiceId: string, amount: string) {
    const body = { data: { type: "refund", attributes: { reference_id: newReference(), amount } } };
    const created = await createRefund(t.db, { merchantId: m.merchantId, invoiceId, body, testOnly: false, createdBy: "test" });
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    return created.refund;
  }

  it("a test payment whose connection became live: a refund, a refund's status request and the refund's callback call nothing and settle nothing", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "test", vaultKey: credentialsKey() });
    const created = await newInvoice(m, true);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    await payOnHostedPage(created.invoice.id, CARD);
    const pending = await refund(m, created.invoice.id, "1.31");
    expect(pending).toMatchObject({ status: "pending" });
    const [pendingRecord] = (await listRecordsForConnection(t.db, connection.id)).filter((record) => record.idempotencyKey === pending.id);

    await flipMode(connection.id, "live");
    fetched.length = 0;
    const refused = await refund(m, created.invoice.id, "2.00");
    expect(refused).toMatchObject({
      status: "failed",
      resolution: "mode_mismatch",
      message: expect.stringMatching(/^A test invoice cannot go through a live-mode connection/),
    });
    expect(await followUpRefund(t.db, pending.id, "test")).toMatchObject({ status: "pending" });
    expect(fetched).toEqual([]);
    expect(liveRequests).toBe(0);

    // The sandbox's word about the pending refund, signed as B signs it: verified, and refused.
    expect((await postBSucceeded(m.merchantId, connection.id, pendingRecord!, "n-mode-refund")).status).toBe(404);
    const [stored] = await t.db.select().from(providerCallbacks).where(eq(providerCallbacks.notificationId, "n-mode-refund"));
    expect(stored).toMatchObject({
      outcome: "rejected",
      reason: expect.stringMatching(/^mode_mismatch: A test invoice cannot go through a live-mode connection/),
      reported: expect.objectContaining({ refund: pending.id }),
    });
    expect(await readRefund(t.db, pending.id)).toMatchObject({ status: "pending" });
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, created.invoice.id));
    expect(row).toMatchObject({ status: "refunding", refundedAmountMinor: 0n });
  });

  it("a test payout whose connection became live: sending it and canceling it call nothing, and the cancel names the mismatch", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-a", "h2h", { mode: "test", vaultKey: credentialsKey() });
    const payout = async (amount: string) => {
      const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
        data: { attributes: Record<string, unknown> };
      };
      Object.assign(body.data.attributes, { amount, test_mode: true, options: { auto_process: false }, fields: { card_number: "4242424242424242" } });
      const made = await createInvoice(t.db, m.merchant, "payout", body);
      if (made.kind !== "created") throw new Error(`setup: ${JSON.stringify(made)}`);
      return made.invoice.id;
    };
    const inProgress = await payout("120.41");
    expect(await processPayout(t.db, inProgress)).toMatchObject({ status: "process_pending" });
    const unsent = await payout("50.00");

    process.env.PROVIDER_A_LIVE_URL = liveOrigin;
    await flipMode(connection.id, "live");
    fetched.length = 0;
    expect(await cancelPayoutInvoice(t.db, m.merchantId, inProgress, { testOnly: false })).toMatchObject({
      kind: "refused",
      code: "mode_mismatch",
      detail: expect.stringMatching(/^This payout cannot be canceled: A test invoice cannot go through a live-mode connection/),
    });
    expect(await processPayout(t.db, unsent)).toMatchObject({ status: "process_failed", resolution: "mode_mismatch" });
    const [attempt] = await listAttempts(t.db, unsent);
    expect(attempt).toMatchObject({ connectionId: connection.id, status: "soft_failed", resolution: "mode_mismatch", exchanges: [] });
    expect(fetched).toEqual([]);
    expect(liveRequests).toBe(0);
    delete process.env.PROVIDER_A_LIVE_URL;
  });
});

type Op =
  | { kind: "connect"; provider: (typeof PROVIDERS)[number]; mode: Mode }
  | { kind: "edit"; pick: number; mode: Mode }
  | { kind: "flip"; pick: number }
  | { kind: "toggle"; pick: number }
  | { kind: "delete"; pick: number }
  | { kind: "route"; mode: Mode; seed: number }
  | { kind: "invoice"; testMode: boolean; pin: number | null }
  | { kind: "pay"; pick: number };

const mode = fc.constantFrom<Mode>("test", "live");
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("connect" as const), provider: fc.constantFrom(...PROVIDERS), mode }),
  fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), mode }),
  fc.record({ kind: fc.constant("flip" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("toggle" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("route" as const), mode, seed: fc.nat() }),
  fc.record({ kind: fc.constant("invoice" as const), testMode: fc.boolean(), pin: fc.option(fc.nat(), { nil: null }) }),
  fc.record({ kind: fc.constant("pay" as const), pick: fc.nat() }),
);

describe("property: for any sequence of connection changes, routing, pins and Pay", () => {
  it("no live invoice reaches a sandbox and no test invoice reaches a live provider", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 18 }), async (ops) => {
        const m = await invoiceMerchant(t.db);
        await updateMerchantSettings(t.db, m.merchantId, { allowLivePins: true });
        const scope = scopeFor(t.db, m.merchantId, credentialsKey());
        const made: { id: string; mode: Mode }[] = [];
        const open: { id: string; testMode: boolean }[] = [];
        const at = <T>(list: T[], pick: number) => (list.length ? list[pick % list.length] : undefined);
        for (const step of ops) {
          if (step.kind === "connect") {
            const connection = await connect(t.db, m.merchantId, step.provider, KIND[step.provider], { mode: step.mode, vaultKey: credentialsKey() });
            made.push({ id: connection.id, mode: step.mode });
          } else if (step.kind === "edit") {
            const target = at(made, step.pick);
            if (target) await editConnection(scope, target.id, { mode: step.mode });
          } else if (step.kind === "flip") {
            const target = at(made, step.pick);
            if (target) await flipMode(target.id, target.mode === "test" ? "live" : "test");
          } else if (step.kind === "toggle") {
            const target = at(made, step.pick);
            const [row] = target ? await t.db.select({ enabled: connections.enabled }).from(connections).where(eq(connections.id, target.id)) : [];
            if (target && row) await setConnectionEnabled(scope, target.id, !row.enabled);
          } else if (step.kind === "delete") {
            const target = at(made, step.pick);
            if (target) await deleteConnection(scope, target.id);
          } else if (step.kind === "route") {
            const ids = made.map((entry) => entry.id).sort((a, b) => ((a.charCodeAt(5) * step.seed) % 7) - ((b.charCodeAt(5) * step.seed) % 7));
            await saveRoutingOrder(t.db, { merchantId: m.merchantId, actor: { label: "property" } }, { service: SERVICE, mode: step.mode, connectionIds: ids });
          } else if (step.kind === "invoice") {
            const pin = step.pin === null ? undefined : at(made, step.pin)?.id;
            const created = await newInvoice(m, step.testMode, pin);
            if (created.kind === "created") open.push({ id: created.invoice.id, testMode: step.testMode });
          } else {
            const target = at(open, step.pick);
            if (!target) continue;
            fetched.length = 0;
            await payOnHostedPage(target.id, CARD);
            for (const url of fetched) {
              if (target.testMode) expect(url.startsWith(sandboxRoot()), `test invoice ${target.id} called ${url}`).toBe(true);
              else expect(url.startsWith(sandbox.origin), `live invoice ${target.id} called ${url}`).toBe(false);
            }
          }
        }
      }),
      { numRuns: Number(process.env.MODE_PROPERTY_RUNS ?? 25) },
    );
  }, 120_000);
});
