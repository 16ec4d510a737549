import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as PAY_PAGE } from "@/app/(public)/pay/[id]/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { POST as CAPTURE } from "@/app/api/commerce/payment-invoices/[id]/capture/route";
import { POST as REFUND } from "@/app/api/commerce/payment-invoices/[id]/refunds/route";
import { POST as VOID } from "@/app/api/commerce/payment-invoices/[id]/void/route";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { sandboxRecords, webhookEvents } from "@/lib/db/schema";
import { invoiceResourceSchema, type InvoiceResource } from "@/lib/invoices/contract";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { voidExpiredAuthorizations } from "@/lib/processing/authorization";
import { payWithCard } from "@/lib/processing/engine";
import { setSandboxAuthorizationHold } from "@/lib/sandbox/authorizations";
import { setSandboxFault } from "@/lib/sandbox/faults";
import { credentialsKey } from "@/lib/vault/vault-key";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { runAllJobs } from "./helpers/jobs";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";
import { send, type Answer } from "./helpers/send";

/**
 * Authorize now, capture later, through the API a client uses and the real sandboxes: a payment of
 * `flow: "authorize"` is `authorized` after Pay; one capture (all or part, where the provider
 * captures part) makes it processed or partially_processed, a void voided; the sweep voids what
 * was not captured in time; captures and voids sent at once take effect once; a refund follows a
 * capture only; the key's mode and the support member's test-only rule hold.
 */
const t = setUpTestDb();
// The app's own sandbox dispatch, fault switches included.
serveSandboxesAsAppUrl();
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };

beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const errorsOf = (answer: Answer) => answer.json.errors;
const capture = (m: InvoiceMerchant, id: string, attributes?: Record<string, unknown>, headers: { key?: string; idempotencyKey?: string } = {}) =>
  send<InvoiceResource, { id: string }>(
    CAPTURE,
    { id },
    {
      method: "POST",
      key: headers.key ?? m.key,
      path: `/api/commerce/payment-invoices/${id}/capture`,
      body: { data: { type: "capture", ...(attributes ? { attributes } : {}) } },
      ...(headers.idempotencyKey ? { headers: { "Idempotency-Key": headers.idempotencyKey } } : {}),
    },
  );
const voidIt = (m: InvoiceMerchant, id: string) =>
  send<InvoiceResource, { id: string }>(
    VOID,
    { id },
    { method: "POST", key: m.key, path: `/api/commerce/payment-invoices/${id}/void`, body: { data: { type: "void" } } },
  );
const read = async (m: InvoiceMerchant, id: string) =>
  (await send<InvoiceResource, { id: string }>(GET_PAYMENT, { id }, { key: m.key, path: `/api/commerce/payment-invoices/${id}` })).json.data;
const eventTypes = async (id: string) =>
  (await t.db.select({ type: webhookEvents.type }).from(webhookEvents).where(eq(webhookEvents.invoiceId, id)).orderBy(webhookEvents.sequence)).map(
    (row) => row.type,
  );

async function authorized(provider = "provider-b", amount = "100.00") {
  const m = await invoiceMerchant(t.db);
  const connection = await connect(t.db, m.merchantId, provider as "provider-b", "h2h", { vaultKey: credentialsKey() });
  const created = await send<InvoiceResource>(
    POST_PAYMENT,
    {},
    {
      method: "POST",
      key: m.key,
      path: "/api/commerce/payment-invoices",
      body: bodyFor(EUR, m.account, { reference_id: newReference(), flow: "authorize", amount, options: { allow_partially: false } }),
    },
  );
  expect(created.status).toBe(201);
  const id = created.json.data.id;
  const paid = await payWithCard(t.db, id, CARD);
  if (paid.kind === "refused") throw new Error(JSON.stringify(paid.problems));
  return { m, id, connection };
}

describe("authorize now, capture later through Provider B's sandbox", () => {
  it("Pay authorizes: authorized_amount, capture_before a week ahead, invoice.authorized; nothing is processed yet", async () => {
    const { m, id } = await authorized();
    const invoice = await read(m, id);
    expect(invoiceResourceSchema.safeParse(invoice).error).toBeUndefined();
    expect(invoice.attributes).toMatchObject({
      status: "authorized",
      resolution: "ok",
      flow: "authorize",
      authorized_amount: "100.00",
      processed_amount: null,
    });
    const before = new Date(String(invoice.attributes.capture_before)).getTime();
    expect(before).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600_000);
    expect(before).toBeLessThanOrEqual(Date.now() + 7 * 24 * 3600_000 + 5_000);
    expect(await eventTypes(id)).toContain("invoice.authorized");
    // The customer's page says the money is reserved, not taken and not "cannot be paid".
    const page = await (await PAY_PAGE(new Request(`http://127.0.0.1/pay/${id}`), { params: Promise.resolve({ id }) })).text();
    expect(page).toContain("Payment authorized");
    expect(page).toContain("is reserved on your card");
    expect(page).not.toContain("cannot be paid");
  });

  it("a partial capture takes part and releases the rest; a second capture is 409; a refund follows only the capture", async () => {
    const { m, id } = await authorized();
    // A refund before the capture is refused: nothing was taken.
    const early = await send(
      REFUND,
      { id },
      {
        method: "POST",
        key: m.key,
        path: `/api/commerce/payment-invoices/${id}/refunds`,
        body: { data: { type: "refund", attributes: { reference_id: newReference() } } },
      },
    );
    expect(early.status).toBe(409);

    const tooMuch = await capture(m, id, { amount: "100.01" });
    expect(tooMuch.status).toBe(422);
    expect(errorsOf(tooMuch)).toEqual([expect.objectContaining({ code: "exceeds_authorized", source: { pointer: "/data/attributes/amount" } })]);

    const taken = await capture(m, id, { amount: "60.00" });
    expect(taken.status).toBe(200);
    expect(taken.json.data.attributes).toMatchObject({ status: "partially_processed", processed_amount: "60.00", authorized_amount: "100.00" });
    expect(await eventTypes(id)).toEqual(expect.arrayContaining(["invoice.authorized", "invoice.captured"]));

    const again = await capture(m, id);
    expect(again.status).toBe(409);
    expect(errorsOf(again)).toEqual([expect.objectContaining({ code: "already_captured" })]);

    const refund = await send<{ attributes: Record<string, unknown> }, { id: string }>(
      REFUND,
      { id },
      {
        method: "POST",
        key: m.key,
        path: `/api/commerce/payment-invoices/${id}/refunds`,
        body: { data: { type: "refund", attributes: { reference_id: newReference() } } },
      },
    );
    expect(refund.status).toBe(201);
    expect(refund.json.data.attributes).toMatchObject({ amount: "60.00", status: "succeeded" });
  });

  it("a full capture without amount is processed; Idempotency-Key replays answer the first capture", async () => {
    const { m, id } = await authorized();
    const first = await capture(m, id, undefined, { idempotencyKey: "cap-1" });
    expect(first.status).toBe(200);
    expect(first.json.data.attributes).toMatchObject({ status: "processed", processed_amount: "100.00" });
    const replay = await capture(m, id, undefined, { idempotencyKey: "cap-1" });
    expect(replay.status).toBe(200);
    expect(replay.json.data.attributes).toMatchObject({ status: "processed", processed_amount: "100.00" });
    const other = await capture(m, id, undefined, { idempotencyKey: "cap-2" });
    expect(other.status).toBe(409);
  });

  it("an Idempotency-Key that is not 1 to 255 visible ASCII characters is refused 400, naming the header, and captures nothing", async () => {
    const { m, id } = await authorized();
    const refused = await capture(m, id, undefined, { idempotencyKey: "x".repeat(256) });
    expect(refused.status).toBe(400);
    expect(errorsOf(refused)).toEqual([expect.objectContaining({ code: "invalid_header", source: { header: "Idempotency-Key" } })]);
    const after = await capture(m, id);
    expect(after.status).toBe(200);
    expect(after.json.data.attributes).toMatchObject({ status: "processed" });
  });

  it("void releases the authorization: voided, invoice.voided, and a capture after it is 409", async () => {
    const { m, id } = await authorized();
    const voided = await voidIt(m, id);
    expect(voided.status).toBe(200);
    expect(voided.json.data.attributes).toMatchObject({ status: "voided", resolution: "voided", processed_amount: null });
    expect(await eventTypes(id)).toContain("invoice.voided");
    const page = await (await PAY_PAGE(new Request(`http://127.0.0.1/pay/${id}`), { params: Promise.resolve({ id }) })).text();
    expect(page).toContain("The amount reserved on your card was released: nothing was taken.");
    const late = await capture(m, id);
    expect(late.status).toBe(409);
    expect(errorsOf(late)).toEqual([expect.objectContaining({ code: "authorization_voided" })]);
  });

  it("a provider that captures only the whole authorization refuses a part at amount (Provider C)", async () => {
    const m = await invoiceMerchant(t.db);
    // Provider C's account offers EUR payments.
    await connect(t.db, m.merchantId, "provider-c", "provider_account", { vaultKey: credentialsKey() });
    const created = await send<InvoiceResource>(
      POST_PAYMENT,
      {},
      {
        method: "POST",
        key: m.key,
        path: "/api/commerce/payment-invoices",
        body: bodyFor(EUR, m.account, { reference_id: newReference(), flow: "authorize" }),
      },
    );
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    expect((await payWithCard(t.db, id, CARD)).kind).toBe("finished");
    expect((await read(m, id)).attributes.status).toBe("authorized");
    const part = await capture(m, id, { amount: "10.00" });
    expect(part.status).toBe(422);
    expect(errorsOf(part)).toEqual([expect.objectContaining({ code: "partial_capture_not_offered", source: { pointer: "/data/attributes/amount" } })]);
  });

  it("the sweep voids an authorization past capture_before, once, with authorization_expired", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    // The sandbox's fault switch: its authorizations hold no time at all here.
    await setSandboxAuthorizationHold(t.db, connection, 0);
    const created = await send<InvoiceResource>(
      POST_PAYMENT,
      {},
      {
        method: "POST",
        key: m.key,
        path: "/api/commerce/payment-invoices",
        body: bodyFor(EUR, m.account, { reference_id: newReference(), flow: "authorize" }),
      },
    );
    const id = created.json.data.id;
    await payWithCard(t.db, id, CARD);
    expect((await read(m, id)).attributes.status).toBe("authorized");
    const swept = await Promise.all([
      voidExpiredAuthorizations(t.db, { merchantId: m.merchantId }),
      voidExpiredAuthorizations(t.db, { merchantId: m.merchantId }),
    ]);
    expect(swept[0] + swept[1]).toBe(1);
    expect((await read(m, id)).attributes).toMatchObject({ status: "voided", resolution: "authorization_expired" });
    const voids = await t.db
      .select()
      .from(sandboxRecords)
      .where(and(eq(sandboxRecords.connectionId, connection.id), eq(sandboxRecords.operation, "void")));
    expect(voids).toHaveLength(1);
  });

  it("100 captures at once, and captures racing a void: one takes effect, the rest are 409, the provider captured once", async () => {
    const { m, id, connection } = await authorized();
    const answers = await Promise.all(Array.from({ length: 100 }, () => capture(m, id)));
    // The one that took it answers 200, or 202 when the provider's answer was slower than the timeout under this load.
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
    expect((await read(m, id)).attributes).toMatchObject({ status: "processed", processed_amount: "100.00" });
    const captures = await t.db
      .select()
      .from(sandboxRecords)
      .where(and(eq(sandboxRecords.connectionId, connection.id), eq(sandboxRecords.operation, "capture")));
    expect(captures).toHaveLength(1);

    const raced = await authorized();
    const mixed = await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? capture(raced.m, raced.id) : voidIt(raced.m, raced.id))));
    const codes = [...new Set(mixed.map((answer) => `${answer.status} ${answer.json.errors?.[0]?.code ?? ""} ${answer.json.errors?.[0]?.detail ?? ""}`))];
    expect(
      mixed.filter((answer) => answer.status === 200 || answer.status === 202),
      codes.join("\n"),
    ).toHaveLength(1);
    expect(mixed.filter((answer) => answer.status === 409)).toHaveLength(99);
    // Whatever the provider's answer time under this load, status requests settle it, and invoice and provider agree.
    await runAllJobs(t.db, { invoiceId: raced.id });
    const moved = (await t.db.select().from(sandboxRecords).where(eq(sandboxRecords.connectionId, raced.connection.id))).filter(
      (record) => (record.operation === "capture" || record.operation === "void") && record.status === "succeeded",
    );
    expect(moved).toHaveLength(1);
    expect((await read(raced.m, raced.id)).attributes.status).toBe(moved[0]!.operation === "capture" ? "processed" : "voided");
  });

  it("a capture without an answer (timeout) stays capturing and a status request settles it", async () => {
    const { m, id, connection } = await authorized();
    // A garbled answer to the capture and to the status request sent at once: not known yet.
    await setSandboxFault(t.db, connection, "garbage");
    const pending = await capture(m, id);
    expect(pending.status, pending.text).toBe(202);
    expect(pending.json.data.attributes.status).toBe("capturing");
    await setSandboxFault(t.db, connection, "none");
    await runAllJobs(t.db, { invoiceId: id });
    expect((await read(m, id)).attributes).toMatchObject({ status: "processed", processed_amount: "100.00" });
  });

  it("a live key never captures a test invoice (404), a charge has nothing to capture (409), and bad bodies name the field", async () => {
    const { m, id } = await authorized();
    const live = await invoiceMerchant(t.db, { mode: "live" });
    expect((await capture(live, id)).status).toBe(404);

    const charge = await send<InvoiceResource>(
      POST_PAYMENT,
      {},
      { method: "POST", key: m.key, path: "/api/commerce/payment-invoices", body: bodyFor(EUR, m.account, { reference_id: newReference() }) },
    );
    const notAuth = await capture(m, charge.json.data.id);
    expect(notAuth.status).toBe(409);
    expect(errorsOf(notAuth)).toEqual([expect.objectContaining({ code: "not_authorized" })]);

    const bad = await capture(m, id, { amount: "ten" });
    expect(bad.status).toBe(422);
    expect(errorsOf(bad)).toEqual([expect.objectContaining({ source: { pointer: "/data/attributes/amount" } })]);
    const unknown = await capture(m, id, { amount: "1.00", extra: true });
    expect(unknown.status).toBe(422);
    expect(errorsOf(unknown)).toEqual([expect.objectContaining({ source: { pointer: "/data/attributes/extra" } })]);
    expect((await read(m, id)).attributes.status).toBe("authorized");
  });
});
