import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { GET as listConnectionsRoute } from "@/app/api/connections/route";
import { GET as getConnectionRoute } from "@/app/api/connections/[id]/route";
import { setSandboxFaultAction } from "@/lib/actions/sandbox-faults";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { connections, sandboxRecords } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { listAttempts } from "@/lib/processing/attempts";
import { payWithCard, payWithoutHostedPage, processPayout, type PayResult } from "@/lib/processing/engine";
import { readInvoice } from "@/lib/invoices/store";
import type { SandboxFaultMode } from "@/lib/sandbox/fault-modes";
import { getSandboxFault, setSandboxFault, slowDelayMs } from "@/lib/sandbox/faults";
import { createConnection } from "@/lib/connections/service";
import type { ConnectionView } from "@/lib/connections/store";
import { credentialsKey } from "@/lib/vault/vault-key";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { createAttributes, parseCreate, scopeFor } from "./helpers/connection-fixtures";
import { setUpTestDb, unique } from "./helpers/db";
import { connect, invoiceMerchant, newReference, teamMerchant, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { runAllJobs } from "./helpers/jobs";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";
import { assertValidApiResponse } from "../helpers/api-validator";

/**
 * Provider faults. Each test-mode connection's sandbox can be switched to
 * fail (lib/sandbox/faults.ts); payments and payouts must end in a defined state with a clear
 * resolution, and cascading and reconciliation must finish the work once the fault is cleared.
 * The sandboxes are served over real HTTP through the app's own dispatcher (where the fault
 * applies), with the provider timeout shortened so a "timeout" costs a fraction of a second.
 */
const t = setUpTestDb();
const TIMEOUT_MS = "400";

/**
 * The provider timeout is read per request (PROVIDER_TIMEOUT_MS), so it is shortened only around
 * the calls meant to time out; everything else keeps the default and never races a busy machine.
 */
async function withTimeout<T>(ms: string, run: () => Promise<T>): Promise<T> {
  process.env.PROVIDER_TIMEOUT_MS = ms;
  try {
    return await run();
  } finally {
    delete process.env.PROVIDER_TIMEOUT_MS;
  }
}
// The sandboxes, and the callback route they call, over HTTP at APP_URL.
serveSandboxesAsAppUrl({ callbacks: true });
const previousTimeout = process.env.PROVIDER_TIMEOUT_MS;
beforeAll(() => {
  delete process.env.PROVIDER_TIMEOUT_MS;
});
afterAll(() => {
  if (previousTimeout !== undefined) process.env.PROVIDER_TIMEOUT_MS = previousTimeout;
});
beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  // Sample credentials are shared by every test connection of a provider, and a sandbox knows its
  // account by them: a fault left on one connection would meet the next test's requests.
  await t.db.delete(sandboxRecords).where(eq(sandboxRecords.operation, "fault"));
});

const PAYMENT_TEMPLATES: Readonly<Record<string, string>> = {
  "provider-a": "a-payment",
  "provider-b": "b-payment",
  "provider-c": "c-payment-amd",
  "provider-d": "d-payment",
  "provider-e": "e-payment",
  "provider-f": "f-payment",
};
const PROVIDERS = Object.keys(PAYMENT_TEMPLATES);

async function newInvoice(m: InvoiceMerchant, template: string, direction: "payment" | "payout" = "payment"): Promise<InvoiceRow> {
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() });
  const created = await createInvoice(t.db, m.merchant, direction, body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice;
}

const SUCCEEDS = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, holder: "Test Holder", cvc: "123" };

/** The first attempt as the customer (or the create request) makes it: F's example goes without the hosted page. */
async function pay(provider: string, invoice: InvoiceRow): Promise<InvoiceRow> {
  const result: PayResult = provider === "provider-f" ? await payWithoutHostedPage(t.db, invoice.id) : await payWithCard(t.db, invoice.id, SUCCEEDS);
  if (result.kind === "refused") throw new Error(`refused: ${JSON.stringify(result.problems)}`);
  return result.invoice;
}

/**
 * A sandbox knows its account by the public credential a request carries (A and E: merchant_id,
 * signed with a key pair the samples share), the oldest matching connection first: each
 * connection here gets its own, as each real merchant has.
 */
async function connectOwn(merchantId: string, provider: string): Promise<ConnectionView> {
  const credentials = sampleCredentials(provider, "h2h", "test");
  if (provider === "provider-a" || provider === "provider-e") credentials.merchant_id = unique(provider === "provider-a" ? "A" : "E").slice(0, 30);
  const created = await createConnection(scopeFor(t.db, merchantId, credentialsKey()), parseCreate(createAttributes(provider, "h2h", "test", { credentials })));
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
  return created.value;
}

async function merchantWith(provider: string) {
  const m = await invoiceMerchant(t.db);
  const connection = await connectOwn(m.merchantId, provider);
  return { m, connection };
}

const recordsOf = (connectionId: string) => t.db.select().from(sandboxRecords).where(eq(sandboxRecords.connectionId, connectionId));
const requestRecordsOf = async (connectionId: string) => (await recordsOf(connectionId)).filter((r) => r.operation !== "fault");

/** Clears the fault and lets the queued status requests (and any payout cascade) run. */
async function clearAndReconcile(connectionId: string, provider: string, invoiceId: string): Promise<InvoiceRow> {
  await setSandboxFault(t.db, { id: connectionId, provider }, "none");
  await runAllJobs(t.db, { invoiceId, name: "invoice-reconcile" });
  return (await readInvoice(t.db, invoiceId))!;
}

describe("server error (5xx): nothing happened at the provider, so the next connection may take the invoice", () => {
  it.each(PROVIDERS)("%s: the only connection answers 503 → process_failed with provider_unavailable; its sandbox made nothing", async (provider) => {
    const { m, connection } = await merchantWith(provider);
    await setSandboxFault(t.db, connection, "server_error");
    const invoice = await newInvoice(m, PAYMENT_TEMPLATES[provider]!);
    const settled = await pay(provider, invoice);
    expect(settled).toMatchObject({ status: "process_failed", resolution: "provider_unavailable" });
    const [attempt] = await listAttempts(t.db, invoice.id);
    expect(attempt).toMatchObject({ connectionId: connection.id, status: "soft_failed", resolution: "provider_unavailable" });
    expect(JSON.stringify(attempt!.exchanges)).toContain('"status":503');
    expect(await requestRecordsOf(connection.id)).toEqual([]);
  });

  it("Provider B: the routed connection fails with 503 and the invoice cascades to the next one in routing, which takes it", async () => {
    const m = await invoiceMerchant(t.db);
    const first = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const second = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const invoice = await newInvoice(m, "b-payment");
    const routed = invoice.connectionId === second.id ? second : first;
    const other = routed === first ? second : first;
    await setSandboxFault(t.db, routed, "server_error");
    expect(await pay("provider-b", invoice)).toMatchObject({ status: "processed", resolution: "ok" });
    const attempts = await listAttempts(t.db, invoice.id);
    expect(attempts.map((a) => [a.connectionId, a.status, a.resolution])).toEqual([
      [routed.id, "soft_failed", "provider_unavailable"],
      [other.id, "succeeded", "ok"],
    ]);
  });

  it("Provider D: once the fault is cleared, the customer pays the same invoice again and it is processed", async () => {
    const { m, connection } = await merchantWith("provider-d");
    await setSandboxFault(t.db, connection, "server_error");
    const invoice = await newInvoice(m, "d-payment");
    expect(await pay("provider-d", invoice)).toMatchObject({ status: "process_failed", resolution: "provider_unavailable" });
    await setSandboxFault(t.db, connection, "none");
    expect(await pay("provider-d", invoice)).toMatchObject({ status: "processed", resolution: "ok" });
  });

  it("Provider A payout: 503 on the only connection fails the payout with provider_unavailable; nothing was paid out", async () => {
    const { m, connection } = await merchantWith("provider-a");
    await setSandboxFault(t.db, connection, "server_error");
    const invoice = await newInvoice(m, "a-payout", "payout");
    expect(await processPayout(t.db, invoice.id)).toMatchObject({ status: "process_failed", resolution: "provider_unavailable" });
    expect(await requestRecordsOf(connection.id)).toEqual([]);
  });
});

/** GET on the connections API with the merchant's key, held to the OpenAPI document. */
async function getConnections(key: string, id?: string): Promise<{ data: unknown }> {
  const path = id ? `/api/connections/${id}` : "/api/connections";
  const request = new Request(`http://test${path}`, { headers: { authorization: `Bearer ${key}` } });
  const response = id
    ? await getConnectionRoute(request, { params: Promise.resolve({ id }) })
    : await listConnectionsRoute(request, { params: Promise.resolve({}) });
  const body = await response.text();
  expect(response.status, body).toBe(200);
  assertValidApiResponse({ method: "GET", url: path, status: response.status, headers: response.headers, body });
  return JSON.parse(body) as { data: unknown };
}

describe("a connection's health through the API", () => {
  it("GET /api/connections and /api/connections/{id} show a connection whose sandbox answers 503 as failing, with the figures the rule read and since when", async () => {
    const { m, connection } = await merchantWith("provider-b");
    // A second connection, disabled so routing never picks it: the list shows it beside the first.
    const other = await connectOwn(m.merchantId, "provider-b");
    await t.db.update(connections).set({ enabled: false }).where(eq(connections.id, other.id));
    const fresh = (await getConnections(m.key, connection.id)).data;
    expect(fresh).toMatchObject({
      attributes: {
        health: {
          state: "healthy",
          since: null,
          recent_outcomes: { counted: 0, succeeded: 0, failed: 0, success_rate: null, failures_in_a_row: 0 },
          last_error: null,
        },
      },
    });

    // One success, then the sandbox fails every request: three technical failures in a row.
    expect(await pay("provider-b", await newInvoice(m, "b-payment"))).toMatchObject({ status: "processed" });
    await setSandboxFault(t.db, connection, "server_error");
    const before = Date.now();
    for (let i = 0; i < 3; i++) {
      const invoice = await newInvoice(m, "b-payment");
      expect(await pay("provider-b", invoice)).toMatchObject({ status: "process_failed", resolution: "provider_unavailable" });
    }

    const failing = {
      id: connection.id,
      attributes: {
        health: {
          state: "failing",
          since: expect.any(String),
          recent_outcomes: { counted: 4, succeeded: 1, failed: 3, success_rate: 0.25, failures_in_a_row: 3 },
          last_error: { at: expect.any(String), resolution: "provider_unavailable" },
        },
      },
    };
    const one = (await getConnections(m.key, connection.id)).data as { attributes: { health: { since: string } } };
    expect(one).toMatchObject(failing);
    expect(Date.parse(one.attributes.health.since)).toBeGreaterThanOrEqual(before - 1000);
    const list = (await getConnections(m.key)).data as { id: string }[];
    expect(list.find((c) => c.id === connection.id)).toMatchObject(failing);
    // The other connection took no attempt: nothing counted, still healthy.
    expect(list.find((c) => c.id === other.id)).toMatchObject({ attributes: { health: { state: "healthy", recent_outcomes: { counted: 0 } } } });
  });
});

describe("garbled answer: the provider took the request, so the outcome is unknown until a status request answers", () => {
  it.each(PROVIDERS)(
    "%s: 200 with a body that is not JSON → the attempt is unknown, never failed; cleared, reconciliation processes the invoice",
    async (provider) => {
      const { m, connection } = await merchantWith(provider);
      await setSandboxFault(t.db, connection, "garbage");
      const invoice = await newInvoice(m, PAYMENT_TEMPLATES[provider]!);
      const waiting = await pay(provider, invoice);
      expect(waiting).toMatchObject({ status: "process_error", resolution: null });
      const [attempt] = await listAttempts(t.db, invoice.id);
      expect(attempt).toMatchObject({ status: "unknown" });
      expect(JSON.stringify(attempt!.exchanges)).toContain("not JSON");
      // The sandbox acted: the payment exists on its side, and only a status request can say so.
      expect((await requestRecordsOf(connection.id)).length).toBeGreaterThan(0);
      expect(await clearAndReconcile(connection.id, provider, invoice.id)).toMatchObject({ status: "processed", resolution: "ok" });
      expect((await listAttempts(t.db, invoice.id)).map((a) => a.status)).toEqual(["succeeded"]);
    },
  );

  it("Provider A payout: a garbled answer leaves the payout waiting; cleared, reconciliation settles it processed", async () => {
    const { m, connection } = await merchantWith("provider-a");
    await setSandboxFault(t.db, connection, "garbage");
    const invoice = await newInvoice(m, "a-payout", "payout");
    expect(await processPayout(t.db, invoice.id)).toMatchObject({ status: "process_error" });
    expect(await clearAndReconcile(connection.id, "provider-a", invoice.id)).toMatchObject({ status: "processed", resolution: "ok" });
  });
});

describe("timeout: no answer within the adapter's timeout", () => {
  it.each(["provider-b", "provider-d"])(
    "%s: the attempt is unknown and the invoice waits; a status request during the fault changes nothing; cleared, it is processed",
    async (provider) => {
      const { m, connection } = await merchantWith(provider);
      await setSandboxFault(t.db, connection, "timeout");
      const invoice = await newInvoice(m, PAYMENT_TEMPLATES[provider]!);
      expect(await withTimeout(TIMEOUT_MS, () => pay(provider, invoice))).toMatchObject({ status: "process_error" });
      const [attempt] = await listAttempts(t.db, invoice.id);
      expect(attempt).toMatchObject({ status: "unknown" });
      expect(JSON.stringify(attempt!.exchanges)).toContain(`no answer within ${TIMEOUT_MS} ms`);
      // Still failing: the scheduled status request times out too, and the invoice keeps waiting.
      await withTimeout(TIMEOUT_MS, () => runAllJobs(t.db, { invoiceId: invoice.id, name: "invoice-reconcile" }, 1));
      expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_error" });
      expect(await clearAndReconcile(connection.id, provider, invoice.id)).toMatchObject({ status: "processed", resolution: "ok" });
    },
  );

  it("Provider A payout: a timeout leaves the payout waiting, never failed (the money may have moved); cleared, it is processed", async () => {
    const { m, connection } = await merchantWith("provider-a");
    await setSandboxFault(t.db, connection, "timeout");
    const invoice = await newInvoice(m, "a-payout", "payout");
    expect(await withTimeout(TIMEOUT_MS, () => processPayout(t.db, invoice.id))).toMatchObject({ status: "process_error" });
    expect(await clearAndReconcile(connection.id, "provider-a", invoice.id)).toMatchObject({ status: "processed", resolution: "ok" });
  });

  it("a status request refused with 503 while the outcome is unknown keeps it unknown: the payment is never given up as failed", async () => {
    const { m, connection } = await merchantWith("provider-b");
    await setSandboxFault(t.db, connection, "timeout");
    const invoice = await newInvoice(m, "b-payment");
    expect(await withTimeout(TIMEOUT_MS, () => pay("provider-b", invoice))).toMatchObject({ status: "process_error" });
    await setSandboxFault(t.db, connection, "server_error");
    await runAllJobs(t.db, { invoiceId: invoice.id, name: "invoice-reconcile" }, 1);
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_error" });
    expect(await listAttempts(t.db, invoice.id)).toMatchObject([{ status: "unknown" }]);
    expect(await clearAndReconcile(connection.id, "provider-b", invoice.id)).toMatchObject({ status: "processed", resolution: "ok" });
  });
});

describe("slow: the answer arrives late but within the timeout", () => {
  it.each(["provider-c", "provider-e"])("%s: the payment is processed as usual; the exchange took at least the sandbox's delay", async (provider) => {
    const { m, connection } = await merchantWith(provider);
    await setSandboxFault(t.db, connection, "slow");
    const invoice = await newInvoice(m, PAYMENT_TEMPLATES[provider]!);
    // A 3 s timeout: the sandbox waits a third of it (1 s) and still answers well in time on a busy machine.
    const { paid, delay } = await withTimeout("3000", async () => ({ paid: await pay(provider, invoice), delay: slowDelayMs() }));
    expect(paid).toMatchObject({ status: "processed", resolution: "ok" });
    const [attempt] = await listAttempts(t.db, invoice.id);
    const exchanges = attempt!.exchanges as { durationMs: number }[];
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.durationMs).toBeGreaterThanOrEqual(delay);
  });
});

describe("setSandboxFaultAction", () => {
  const call = (input: unknown) => setSandboxFaultAction(input);

  it("an owner sets and clears the mode of a test-mode connection; the sandbox keeps it", async () => {
    const team = await teamMerchant(t.db);
    const connection = await connect(t.db, team.merchantId, "provider-b", "h2h");
    session.userId = team.ownerId;
    expect(await call({ id: connection.id, mode: "garbage" })).toMatchObject({
      ok: true,
      data: { mode: "garbage", message: expect.stringContaining("Garbled answer") },
    });
    expect(await getSandboxFault(t.db, connection.id)).toBe("garbage");
    expect(await call({ id: connection.id, mode: "none" })).toMatchObject({
      ok: true,
      data: { mode: "none", message: expect.stringContaining("answers normally") },
    });
    expect(await getSandboxFault(t.db, connection.id)).toBe("none");
  });

  it("refuses a live connection, another merchant's connection, an unknown mode, a support member and no session", async () => {
    const team = await teamMerchant(t.db);
    const live = await connect(t.db, team.merchantId, "provider-b", "h2h", { mode: "live" });
    const theirs = await connect(t.db, (await invoiceMerchant(t.db)).merchantId, "provider-b", "h2h");
    session.userId = team.ownerId;
    expect(await call({ id: live.id, mode: "timeout" })).toMatchObject({ ok: false, message: expect.stringContaining("test-mode connections only") });
    expect(await call({ id: theirs.id, mode: "timeout" })).toMatchObject({ ok: false, message: "This connection does not exist or was deleted." });
    expect(await getSandboxFault(t.db, theirs.id)).toBe("none");
    expect(await call({ id: theirs.id, mode: "explode" as SandboxFaultMode })).toMatchObject({
      ok: false,
      fieldErrors: { mode: expect.stringContaining("Choose one of") },
    });
    session.userId = team.supportId;
    const own = await connect(t.db, team.merchantId, "provider-c", "h2h");
    expect(await call({ id: own.id, mode: "timeout" })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not connect providers and change their credentials.",
    });
    session.userId = undefined;
    expect(await call({ id: own.id, mode: "timeout" })).toMatchObject({ ok: false, message: "Your session has ended. Sign in again." });
    expect(await getSandboxFault(t.db, own.id)).toBe("none");
  });
});
