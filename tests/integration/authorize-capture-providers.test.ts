import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { POST as CAPTURE } from "@/app/api/commerce/payment-invoices/[id]/capture/route";
import { POST as REFUND } from "@/app/api/commerce/payment-invoices/[id]/refunds/route";
import { POST as VOID } from "@/app/api/commerce/payment-invoices/[id]/void/route";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findConnectionRow } from "@/lib/connections/queries";
import { revealCredentials } from "@/lib/connections/store";
import { sandboxRecords, webhookEvents } from "@/lib/db/schema";
import type { InvoiceResource } from "@/lib/invoices/contract";
import { getOverview, readPeriod } from "@/lib/analytics/overview";
import { rebuildRollups } from "@/lib/analytics/rollups";
import { overviewRollups } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { listAttempts } from "@/lib/processing/attempts";
import { requeueAuthorizationFollowUps, voidExpiredAuthorizations } from "@/lib/processing/authorization";
import { payWithCard, resumeAfterRedirect } from "@/lib/processing/engine";
import type { ConnectionKind } from "@/lib/providers";
import { capabilitiesOf } from "@/lib/providers/capabilities";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { getProviderServer } from "@/lib/providers/server/servers";
import { setSandboxAuthorizationHold } from "@/lib/sandbox/authorizations";
import { setSandboxFault } from "@/lib/sandbox/faults";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { credentialsKey } from "@/lib/vault/vault-key";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { clearQueuedJobs, runAllJobs } from "./helpers/jobs";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";
import { send, type Answer } from "./helpers/send";

/**
 * Authorize now, capture later through every provider that authorizes (A, B, C, E), each through
 * its own sandbox and wire: Pay authorizes; a capture takes all (C and E: only all; a part is
 * refused 422 at amount before anything is sent, and their sandboxes refuse one in their own words)
 * or part (A and B); a refund follows the capture only; a void releases it; the sweep voids what
 * lapsed (authorization_expired); 100 captures at once, and captures racing voids, take effect once
 * at the provider.
 */
const t = setUpTestDb();
const sandbox = serveSandboxesAsAppUrl();
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };
const THREE_DS_CARD = { ...CARD, number: "4000000000003220" };

type Case = { provider: string; kind: ConnectionKind; example: string; amount: string; part: string };
const PROVIDERS: Case[] = [
  { provider: "provider-a", kind: "provider_account", example: "A: payment_card_uah_hpp, UAH, allow_partially only", amount: "100.00", part: "60.00" },
  { provider: "provider-b", kind: "h2h", example: "B: EUR without customer", amount: "100.00", part: "60.00" },
  { provider: "provider-c", kind: "provider_account", example: "B: EUR without customer", amount: "100.00", part: "60.00" },
  { provider: "provider-e", kind: "h2h", example: "E: EUR with date_of_birth, customer reference_id as integer", amount: "100.00", part: "60.00" },
];

beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const capture = (m: InvoiceMerchant, id: string, attributes?: Record<string, unknown>) =>
  send<InvoiceResource, { id: string }>(
    CAPTURE,
    { id },
    {
      method: "POST",
      key: m.key,
      path: `/api/commerce/payment-invoices/${id}/capture`,
      body: { data: { type: "capture", ...(attributes ? { attributes } : {}) } },
    },
  );
const voidIt = (m: InvoiceMerchant, id: string) =>
  send<InvoiceResource, { id: string }>(
    VOID,
    { id },
    { method: "POST", key: m.key, path: `/api/commerce/payment-invoices/${id}/void`, body: { data: { type: "void" } } },
  );
const refund = (m: InvoiceMerchant, id: string) =>
  send<{ attributes: Record<string, unknown> }, { id: string }>(
    REFUND,
    { id },
    {
      method: "POST",
      key: m.key,
      path: `/api/commerce/payment-invoices/${id}/refunds`,
      body: { data: { type: "refund", attributes: { reference_id: newReference() } } },
    },
  );
const read = async (m: InvoiceMerchant, id: string) =>
  (await send<InvoiceResource, { id: string }>(GET_PAYMENT, { id }, { key: m.key, path: `/api/commerce/payment-invoices/${id}` })).json.data;
const codeOf = (answer: Answer) => answer.json.errors?.[0]?.code;
const recordsOf = (connectionId: string, operation: "capture" | "void") =>
  t.db
    .select()
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.connectionId, connectionId), eq(sandboxRecords.operation, operation)));

async function setUp(entry: Case, options: { holdSeconds?: number } = {}) {
  const m = await invoiceMerchant(t.db);
  const connection = await connect(t.db, m.merchantId, entry.provider, entry.kind, { vaultKey: credentialsKey() });
  if (options.holdSeconds !== undefined) await setSandboxAuthorizationHold(t.db, connection, options.holdSeconds);
  return { m, connection };
}

async function createAuthorize(entry: Case, m: InvoiceMerchant): Promise<string> {
  const created = await send<InvoiceResource>(
    POST_PAYMENT,
    {},
    {
      method: "POST",
      key: m.key,
      path: "/api/commerce/payment-invoices",
      body: bodyFor(PAYMENT_EXAMPLES[entry.example], m.account, {
        reference_id: newReference(),
        flow: "authorize",
        amount: entry.amount,
        options: { allow_partially: false },
      }),
    },
  );
  expect(created.status, created.text).toBe(201);
  return created.json.data.id;
}

async function authorized(entry: Case, options: { holdSeconds?: number } = {}) {
  const { m, connection } = await setUp(entry, options);
  const id = await createAuthorize(entry, m);
  const paid = await payWithCard(t.db, id, CARD);
  expect(paid.kind, paid.kind === "refused" ? JSON.stringify(paid.problems) : paid.invoice.status).toBe("finished");
  return { m, id, connection };
}

describe.each(PROVIDERS)("authorize now, capture later through $provider's sandbox", (entry) => {
  const partial = capabilitiesOf(entry.provider).partialCapture;

  it("Pay authorizes (nothing processed, capture_before a week ahead); a refund before the capture is refused; the capture takes money, then a refund follows", async () => {
    const { m, id, connection } = await authorized(entry);
    const invoice = await read(m, id);
    expect(invoice.attributes).toMatchObject({ status: "authorized", authorized_amount: entry.amount, processed_amount: null });
    const before = new Date(String(invoice.attributes.capture_before)).getTime();
    expect(before).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600_000);
    expect(before).toBeLessThanOrEqual(Date.now() + 7 * 24 * 3600_000 + 5_000);
    const events = await t.db.select({ type: webhookEvents.type }).from(webhookEvents).where(eq(webhookEvents.invoiceId, id));
    expect(events.map((event) => event.type)).toContain("invoice.authorized");

    expect((await refund(m, id)).status).toBe(409);

    const part = await capture(m, id, { amount: entry.part });
    if (partial) {
      expect(part.status, part.text).toBe(200);
      expect(part.json.data.attributes).toMatchObject({ status: "partially_processed", processed_amount: entry.part, authorized_amount: entry.amount });
    } else {
      // The product refuses a part before sending anything: the provider captures only all of it.
      expect(part.status).toBe(422);
      expect(part.json.errors).toEqual([expect.objectContaining({ code: "partial_capture_not_offered", source: { pointer: "/data/attributes/amount" } })]);
      expect(await recordsOf(connection.id, "capture")).toEqual([]);
      const whole = await capture(m, id);
      expect(whole.status, whole.text).toBe(200);
      expect(whole.json.data.attributes).toMatchObject({ status: "processed", processed_amount: entry.amount });
    }
    const captures = await recordsOf(connection.id, "capture");
    expect(captures.map((record) => record.status)).toEqual(["succeeded"]);

    const again = await capture(m, id);
    expect(again.status).toBe(409);
    expect(codeOf(again)).toBe("already_captured");

    const refunded = await refund(m, id);
    expect(refunded.status, refunded.text).toBe(201);
    expect(refunded.json.data.attributes).toMatchObject({ amount: partial ? entry.part : entry.amount, status: "succeeded" });
  });

  it("void releases the authorization once: voided, invoice.voided, the provider voided it, and a capture after it is 409", async () => {
    const { m, id, connection } = await authorized(entry);
    const voided = await voidIt(m, id);
    expect(voided.status, voided.text).toBe(200);
    expect(voided.json.data.attributes).toMatchObject({ status: "voided", resolution: "voided", processed_amount: null });
    const events = await t.db.select({ type: webhookEvents.type }).from(webhookEvents).where(eq(webhookEvents.invoiceId, id));
    expect(events.map((event) => event.type)).toContain("invoice.voided");
    expect((await recordsOf(connection.id, "void")).map((record) => record.status)).toEqual(["succeeded"]);
    const late = await capture(m, id);
    expect(late.status).toBe(409);
    expect(codeOf(late)).toBe("authorization_voided");
    expect((await refund(m, id)).status).toBe(409);
  });

  it("3-D Secure on an authorization: Pay waits for the step, passing it leaves the payment authorized, and it captures", async () => {
    const { m } = await setUp(entry);
    const id = await createAuthorize(entry, m);
    expect((await payWithCard(t.db, id, THREE_DS_CARD)).kind).toBe("redirect");
    const [attempt] = await listAttempts(t.db, id);
    await completeThreeDs(t.db, entry.provider, attempt!.providerReference!, "pass");
    expect((await resumeAfterRedirect(t.db, id)).status).toBe("authorized");
    const taken = await capture(m, id);
    expect(taken.status, taken.text).toBe(200);
    expect(taken.json.data.attributes).toMatchObject({ status: "processed", processed_amount: entry.amount });
  });

  it("the sweep voids an authorization past capture_before, once, with authorization_expired (the sandbox's hold switch set to no time)", async () => {
    const { m, id, connection } = await authorized(entry, { holdSeconds: 0 });
    expect((await read(m, id)).attributes.status).toBe("authorized");
    const swept = await Promise.all([
      voidExpiredAuthorizations(t.db, { merchantId: m.merchantId }),
      voidExpiredAuthorizations(t.db, { merchantId: m.merchantId }),
    ]);
    expect(swept[0] + swept[1]).toBe(1);
    expect((await read(m, id)).attributes).toMatchObject({ status: "voided", resolution: "authorization_expired" });
    expect(await recordsOf(connection.id, "void")).toHaveLength(1);
  });

  it("a capture whose answer was lost and whose status request was lost too (a killed server) is found by the sweep and settled once", async () => {
    const { m, id, connection } = await authorized(entry);
    // The provider takes the capture but its answer is garbled: the capture stays capturing (202).
    await setSandboxFault(t.db, connection, "garbage");
    const pending = await capture(m, id);
    expect(pending.status, pending.text).toBe(202);
    await setSandboxFault(t.db, connection, "none");
    // The server dies before its status request runs: no job is left for it.
    await clearQueuedJobs(t.db, "authorization-reconcile");
    expect(await requeueAuthorizationFollowUps(t.db, { merchantId: m.merchantId, graceSeconds: 0 })).toBe(1);
    // Queued once, however many sweeps run.
    expect(await requeueAuthorizationFollowUps(t.db, { merchantId: m.merchantId, graceSeconds: 0 })).toBe(0);
    await runAllJobs(t.db, { invoiceId: id });
    expect((await read(m, id)).attributes).toMatchObject({ status: "processed", processed_amount: entry.amount });
    expect(await recordsOf(connection.id, "capture")).toHaveLength(1);
  });

  it("100 captures at once take effect once; captures racing voids too: the provider moved money once and agrees with the invoice", async () => {
    const { m, id, connection } = await authorized(entry);
    const answers = await Promise.all(Array.from({ length: 100 }, () => capture(m, id)));
    const winners = answers.filter((answer) => answer.status === 200 || answer.status === 202);
    expect(
      winners,
      answers
        .filter((answer) => answer.status !== 409)
        .map((answer) => answer.text.slice(0, 300))
        .join("\n"),
    ).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(99);
    await runAllJobs(t.db, { invoiceId: id });
    expect((await read(m, id)).attributes).toMatchObject({ status: "processed", processed_amount: entry.amount });
    expect(await recordsOf(connection.id, "capture")).toHaveLength(1);

    const raced = await authorized(entry);
    const mixed = await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? capture(raced.m, raced.id) : voidIt(raced.m, raced.id))));
    expect(mixed.filter((answer) => answer.status === 200 || answer.status === 202)).toHaveLength(1);
    expect(mixed.filter((answer) => answer.status === 409)).toHaveLength(99);
    await runAllJobs(t.db, { invoiceId: raced.id });
    const moved = [...(await recordsOf(raced.connection.id, "capture")), ...(await recordsOf(raced.connection.id, "void"))].filter(
      (record) => record.status === "succeeded",
    );
    expect(moved).toHaveLength(1);
    expect((await read(raced.m, raced.id)).attributes.status).toBe(moved[0]!.operation === "capture" ? "processed" : "voided");
  });
});

describe.each(PROVIDERS.filter((entry) => capabilitiesOf(entry.provider).cardTokens))("a saved card authorized through $provider", (entry) => {
  it("a saved card charged with flow authorize is authorized at creation, not captured, and captures after", async () => {
    const { m } = await setUp(entry);
    const post = (attributes: Record<string, unknown>, data: Record<string, unknown> = {}) => {
      const body = bodyFor(PAYMENT_EXAMPLES[entry.example], m.account, {
        reference_id: newReference(),
        amount: entry.amount,
        options: { allow_partially: false },
        customer: { reference_id: "cust-authorize" },
        ...attributes,
      });
      Object.assign(body.data, data);
      return send<InvoiceResource & { relationships: Record<string, { data?: { id: string } }> }>(
        POST_PAYMENT,
        {},
        {
          method: "POST",
          key: m.key,
          path: "/api/commerce/payment-invoices",
          body,
        },
      );
    };
    const saving = await post({ gateway_options: { cardgate: { tokenize: "" } } });
    expect(saving.status, saving.text).toBe(201);
    expect((await payWithCard(t.db, saving.json.data.id, CARD)).kind).toBe("finished");
    const methodId = (await read(m, saving.json.data.id)).relationships?.payment_method?.data?.id;
    expect(methodId).toMatch(/^pm_/);

    const charged = await post({ flow: "authorize" }, { relationships: { payment_method: { data: { type: "payment-methods", id: methodId } } } });
    expect(charged.status, charged.text).toBe(201);
    expect(charged.json.data.attributes).toMatchObject({ status: "authorized", authorized_amount: entry.amount, processed_amount: null });
    const taken = await capture(m, charged.json.data.id);
    expect(taken.status, taken.text).toBe(200);
    expect(taken.json.data.attributes).toMatchObject({ status: "processed", processed_amount: entry.amount });
  });
});

describe.each(PROVIDERS.filter((entry) => !capabilitiesOf(entry.provider).partialCapture))(
  "$provider's sandbox refuses a partial capture in its own words",
  (entry) => {
    it("a part sent straight to the sandbox is declined, the authorization stays held, and the whole is captured after", async () => {
      const { m, id, connection } = await authorized(entry);
      const [attempt] = await listAttempts(t.db, id);
      const row = await findConnectionRow(t.db, m.merchantId, connection.id);
      const adapter = getProviderServer(entry.provider)!.adapter;
      const context = {
        connectionId: connection.id,
        kind: entry.kind,
        mode: "test" as const,
        baseUrl: `${sandbox.baseUrl()}/sandbox/${entry.provider}`,
        credentials: revealCredentials(row!, credentialsKey()),
        exchanges: createExchangeRecorder(),
        timeoutMs: 5000,
      };
      const declined = await adapter.capture!(context, {
        captureId: `${id}-direct-part`,
        invoiceId: id,
        paymentReference: attempt!.providerReference!,
        paymentKey: attempt!.idempotencyKey,
        currency: "EUR",
        amount: "60.00",
        amountMinor: 6000n,
      });
      const words = entry.provider === "provider-c" ? "PARTIAL_CAPTURE_NOT_SUPPORTED" : "Partial capture not supported";
      expect(declined).toMatchObject({ kind: "declined", message: expect.stringContaining(words) });
      const whole = await capture(m, id);
      expect(whole.status, whole.text).toBe(200);
      expect(whole.json.data.attributes).toMatchObject({ status: "processed", processed_amount: entry.amount });
    });
  },
);

describe("the overview counts authorized money apart from captured", () => {
  it("authorizations are held money, not payments; a capture moves what it took to payments, a void takes it out; a rebuild agrees", async () => {
    const entry = PROVIDERS.find((candidate) => candidate.provider === "provider-b")!;
    const { m } = await setUp(entry);
    const first = await createAuthorize(entry, m);
    const second = await createAuthorize(entry, m);
    for (const id of [first, second]) expect((await payWithCard(t.db, id, CARD)).kind).toBe("finished");
    const today = readPeriod({ period: "today" }).period;
    const totals = async () => (await getOverview(t.db, m.merchantId, "test", today)).totals;

    expect(await totals()).toEqual([
      expect.objectContaining({ currency: "EUR", payments: { count: 0, minor: 0n }, authorized: { count: 2, minor: 20000n }, netMinor: 0n }),
    ]);
    expect((await capture(m, first, { amount: "60.00" })).status).toBe(200);
    expect(await totals()).toEqual([
      expect.objectContaining({ currency: "EUR", payments: { count: 1, minor: 6000n }, authorized: { count: 1, minor: 10000n }, netMinor: 6000n }),
    ]);
    expect((await voidIt(m, second)).status).toBe(200);
    const after = await totals();
    expect(after).toEqual([expect.objectContaining({ payments: { count: 1, minor: 6000n }, authorized: { count: 0, minor: 0n } })]);
    // Neither an authorization nor a void is a failure: the success rate counts the one capture.
    expect(await getOverview(t.db, m.merchantId, "test", today)).toMatchObject({ processed: 1, failed: 0 });

    const rows = async () =>
      (await t.db.select().from(overviewRollups).where(eq(overviewRollups.merchantId, m.merchantId)))
        .map((row) => `${row.grain} ${row.source} ${row.status} ${row.count} ${row.amountMinor}`)
        .sort();
    const incremental = await rows();
    await rebuildRollups(t.db, { merchantId: m.merchantId });
    expect(await rows()).toEqual(incremental);
  });
});
