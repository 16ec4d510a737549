import { createHmac, randomBytes } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as callbackRoute } from "@/app/api/callbacks/[slug]/[connectionId]/route";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { createConnection } from "@/lib/connections/service";
import { revealCredentials } from "@/lib/connections/store";
import { credentialsKey } from "@/lib/vault/vault-key";
import { connections, providerCallbacks } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { listAttempts } from "@/lib/processing/attempts";
import { payWithCard } from "@/lib/processing/engine";
import type { SignedCallback } from "@/lib/providers/kit/provider-server";
import { readInvoice } from "@/lib/invoices/store";
import type { CredentialValues } from "@/lib/providers";
import { getProviderServer, registerProviderServer } from "@/lib/providers/server/servers";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { sandboxCallbackKeyPair } from "@/lib/sandbox/callback-keys";
import { createAttributes, parseCreate, scopeFor } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxes } from "./helpers/sandbox-http";

/**
 * What the route refuses (forged, replayed, stale, malformed, for no
 * connection, too large), each stored as rejected with its reason and changing nothing; and a late
 * callback about an attempt the invoice has left after cascading, stored as superseded without
 * touching the newer attempt's outcome.
 */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const B = getProviderServer("provider-b")!.callbacks!;
const card = (number: string) => ({ number, expiryMonth: 12, expiryYear: 2030, holder: "Test Holder", cvc: "123" });
const now = () => Math.floor(Date.now() / 1000);
const notificationId = () => `ntf_test_${randomBytes(8).toString("hex")}`;

async function credentialsOf(connectionId: string): Promise<CredentialValues> {
  const [row] = await t.db.select().from(connections).where(eq(connections.id, connectionId));
  return revealCredentials(row!, credentialsKey());
}

async function exampleInvoice(m: InvoiceMerchant, template: string): Promise<InvoiceRow> {
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() });
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice;
}

function post(slug: string, connectionId: string, signed: SignedCallback | { headers: Record<string, string>; rawBody: string }) {
  const request = new Request(`${sandbox.origin}/api/callbacks/${slug}/${connectionId}`, { method: "POST", headers: signed.headers, body: signed.rawBody });
  return callbackRoute(request, { params: Promise.resolve({ slug, connectionId }) });
}

/** Provider B's charge notification saying the attempt succeeded, as its sandbox words one. */
function bSuccess(orderRef: string, txn: string) {
  return { event: "charge.updated", txn, order_ref: orderRef, result: "ok", sum: "100.50", cur: "UAH", captured_sum: "100.50" };
}

/** Provider B's scheme written out independently of its module: HMAC-SHA256 of `${t}.${notification id}.${raw body}`. */
function signedByHand(credentials: CredentialValues, rawBody: string) {
  const id = notificationId();
  const timestamp = now();
  const digest = createHmac("sha256", String(credentials.secret_key)).update(`${timestamp}.${id}.${rawBody}`).digest("hex");
  return { headers: { "content-type": "application/json", "x-notification-id": id, "x-notification-signature": `t=${timestamp},v1=${digest}` }, rawBody };
}

async function storedRows(connectionId: string) {
  return t.db.select().from(providerCallbacks).where(eq(providerCallbacks.connectionId, connectionId));
}

/** An invoice waiting for Provider B's 3-D Secure step: a valid success callback would process it. */
async function waitingBInvoice() {
  const m = await invoiceMerchant(t.db);
  const connection = await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
  const invoice = await exampleInvoice(m, "b-payment");
  expect(await payWithCard(t.db, invoice.id, card("4000000000003220"))).toMatchObject({ invoice: { status: "process_pending" } });
  const [attempt] = await listAttempts(t.db, invoice.id);
  return { merchantId: m.merchantId, connection, invoice, attempt: attempt!, credentials: await credentialsOf(connection.id) };
}

async function expectRefused(response: Response, status: number, reason: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { errors: { status: string; detail: string }[] };
  expect(body.errors).toEqual([expect.objectContaining({ status: String(status), detail: reason })]);
}

describe("POST /api/callbacks/<slug>/<connection id>: refusals", () => {
  it("forged callbacks (tampered body, another connection's secret, no signature) are 401, stored as rejected, and change nothing", async () => {
    const { merchantId, connection, invoice, attempt, credentials } = await waitingBInvoice();
    const event = bSuccess(attempt.id, attempt.providerReference!);

    const signed = B.sign({ event, credentials, notificationId: notificationId(), timestamp: now() });
    const tampered = { ...signed, rawBody: signed.rawBody.replace('"100.50"', '"900.50"') };
    await expectRefused(await post("provider-b", connection.id, tampered), 401, "invalid signature");

    const other = { ...credentials, secret_key: `sk_${randomBytes(16).toString("hex")}` };
    await expectRefused(
      await post("provider-b", connection.id, B.sign({ event, credentials: other, notificationId: notificationId(), timestamp: now() })),
      401,
      "invalid signature",
    );

    await expectRefused(
      await post("provider-b", connection.id, { headers: { "content-type": "application/json" }, rawBody: JSON.stringify(event) }),
      401,
      "missing signature",
    );

    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_pending", processedAmountMinor: null });
    expect((await listAttempts(t.db, invoice.id))[0]).toMatchObject({ status: "pending" });
    const rows = await storedRows(connection.id);
    expect(rows.map((row) => [row.outcome, row.reason]).sort()).toEqual([
      ["rejected", "invalid signature"],
      ["rejected", "invalid signature"],
      ["rejected", "missing signature"],
    ]);
    expect(rows.every((row) => row.invoiceId === null && row.merchantId === merchantId)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(String(credentials.secret_key));
  });

  it("a stale timestamp (over five minutes) is 401 and changes nothing", async () => {
    const { connection, invoice, attempt, credentials } = await waitingBInvoice();
    const stale = B.sign({ event: bSuccess(attempt.id, attempt.providerReference!), credentials, notificationId: notificationId(), timestamp: now() - 301 });
    await expectRefused(await post("provider-b", connection.id, stale), 401, "stale timestamp");
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_pending" });
    expect(await storedRows(connection.id)).toEqual([expect.objectContaining({ outcome: "rejected", reason: "stale timestamp" })]);
  });

  it("a validly signed body that is not JSON, or not B's notification, is 400 malformed and changes nothing", async () => {
    const { connection, invoice, credentials } = await waitingBInvoice();
    await expectRefused(
      await post("provider-b", connection.id, signedByHand(credentials, "{not json")),
      400,
      "malformed: not a Provider B charge, refund or dispute notification",
    );
    await expectRefused(
      await post("provider-b", connection.id, signedByHand(credentials, JSON.stringify({ event: "charge.updated", txn: 42 }))),
      400,
      "malformed: not a Provider B charge, refund or dispute notification",
    );
    const withNul = JSON.stringify({ event: "charge.updated", txn: "B\u0000x", order_ref: "att_x", result: "fail", cur: "UAH", error_text: "no\u0000" });
    await expectRefused(
      await post("provider-b", connection.id, signedByHand(credentials, withNul)),
      400,
      "malformed: a value holds a NUL or an unpaired surrogate",
    );
    await expectRefused(
      await post("provider-b", connection.id, { headers: { "content-type": "text/plain" }, rawBody: "raw\u0000body" }),
      401,
      "missing signature",
    );
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_pending" });
    const rows = await storedRows(connection.id);
    expect(rows.map((row) => row.outcome)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    // An unverified body is not kept, only measured; a verified one is kept redacted, its NUL replaced.
    expect(rows.map((row) => row.body)).toContainEqual(expect.stringMatching(/^\(not kept until verified: 8 bytes, sha256 [0-9a-f]{16}…\)$/));
    expect(rows.map((row) => row.body)).toContainEqual(expect.stringContaining('"order_ref":"att_x"'));
  });

  it("a replayed notification id is 401 replayed, stored as rejected, and applied only once, even when both arrive together", async () => {
    const { connection, invoice, attempt, credentials } = await waitingBInvoice();
    const signed = B.sign({ event: bSuccess(attempt.id, attempt.providerReference!), credentials, notificationId: notificationId(), timestamp: now() });
    const [first, second] = await Promise.all([post("provider-b", connection.id, signed), post("provider-b", connection.id, signed)]);
    const statuses = [first!.status, second!.status].sort();
    expect(statuses).toEqual([200, 401]);
    const accepted = first!.status === 200 ? first! : second!;
    expect(await accepted.json()).toEqual({ received: true, outcome: "applied" });
    await expectRefused(first!.status === 401 ? first! : second!, 401, "replayed");
    await expectRefused(await post("provider-b", connection.id, signed), 401, "replayed");

    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "processed", processedAmountMinor: 10_050n });
    const rows = await storedRows(connection.id);
    expect(rows.map((row) => `${row.outcome}:${row.reason ?? ""}`).sort()).toEqual(["applied:", "rejected:replayed", "rejected:replayed"]);
    expect(new Set(rows.map((row) => row.notificationId)).size).toBe(1);
  });

  it("an unknown connection, or one of another provider, is 404 and stored as rejected", async () => {
    const { connection, attempt, credentials } = await waitingBInvoice();
    const signed = B.sign({ event: bSuccess(attempt.id, attempt.providerReference!), credentials, notificationId: notificationId(), timestamp: now() });
    const missing = `conn_missing_${randomBytes(6).toString("hex")}`;
    await expectRefused(await post("provider-b", missing, signed), 404, "unknown connection");
    expect(await storedRows(missing)).toEqual([
      expect.objectContaining({ provider: "provider-b", outcome: "rejected", reason: "unknown connection", merchantId: null }),
    ]);
    await expectRefused(await post("provider-f", connection.id, signed), 404, "unknown connection");
    await expectRefused(await post("provider-nope", connection.id, signed), 404, "unknown provider");
    expect((await storedRows(connection.id)).map((row) => `${row.provider}:${row.reason}`)).toEqual(["provider-f:unknown connection"]);
  });

  it("a connection id that is no id (a NUL byte, a stray escape) is 404, like an unknown one, and nothing is stored", async () => {
    const { connection, attempt, credentials } = await waitingBInvoice();
    const signed = B.sign({ event: bSuccess(attempt.id, attempt.providerReference!), credentials, notificationId: notificationId(), timestamp: now() });
    const [before] = (await t.db.select({ n: count() }).from(providerCallbacks)) as [{ n: number }];
    for (const id of ["\u0000", `${connection.id}\u0000`, "conn_%E0%A4", "a b"])
      await expectRefused(await post("provider-b", id, signed), 404, "unknown connection");
    const [after] = (await t.db.select({ n: count() }).from(providerCallbacks)) as [{ n: number }];
    expect(after.n).toBe(before.n);
  });

  it("a body over 64 KiB is 413 and stored as rejected", async () => {
    const { connection, invoice, attempt, credentials } = await waitingBInvoice();
    const event = { ...bSuccess(attempt.id, attempt.providerReference!), padding: "x".repeat(70_000) };
    const signed = B.sign({ event, credentials, notificationId: notificationId(), timestamp: now() });
    await expectRefused(await post("provider-b", connection.id, signed), 413, "body over 65536 bytes");
    expect(await readInvoice(t.db, invoice.id)).toMatchObject({ status: "process_pending" });
    expect(await storedRows(connection.id)).toEqual([
      expect.objectContaining({ outcome: "rejected", reason: "body over 65536 bytes", body: "(not kept: over 65536 bytes)" }),
    ]);
  });

  it("Provider E live mode: without PROVIDER_E_CALLBACK_PUBLIC_KEY a callback is refused with that reason; with it, E's signature verifies", async () => {
    const m = await invoiceMerchant(t.db);
    const credentials = sampleCredentials("provider-e", "h2h", "live");
    const created = await createConnection(
      scopeFor(t.db, m.merchantId, credentialsKey()),
      parseCreate(createAttributes("provider-e", "h2h", "live", { credentials })),
    );
    if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
    const E = getProviderServer("provider-e")!.callbacks!;
    const payment = {
      paymentId: "epay_live",
      merchantReference: "att_unknown",
      resultCode: "Authorised",
      amount: { value: "75.00", currency: "EUR" },
      capturedAmount: { value: "75.00", currency: "EUR" },
    };
    const previous = process.env.PROVIDER_E_CALLBACK_PUBLIC_KEY;
    try {
      delete process.env.PROVIDER_E_CALLBACK_PUBLIC_KEY;
      await expectRefused(
        await post("provider-e", created.value.id, E.sign({ event: payment, credentials, notificationId: notificationId(), timestamp: now() })),
        401,
        "no callback public key configured (PROVIDER_E_CALLBACK_PUBLIC_KEY)",
      );
      process.env.PROVIDER_E_CALLBACK_PUBLIC_KEY = sandboxCallbackKeyPair("provider-e").publicKey.export({ type: "spki", format: "pem" }).toString();
      // Verified, but about no attempt of this connection.
      await expectRefused(
        await post("provider-e", created.value.id, E.sign({ event: payment, credentials, notificationId: notificationId(), timestamp: now() })),
        404,
        "no attempt of this connection matches the notification",
      );
    } finally {
      if (previous === undefined) delete process.env.PROVIDER_E_CALLBACK_PUBLIC_KEY;
      else process.env.PROVIDER_E_CALLBACK_PUBLIC_KEY = previous;
    }
  });
});

describe("A late callback after cascading", () => {
  it("a validly signed success for attempt 1 after attempt 2 decided is stored as superseded and changes neither the invoice nor attempt 2", async () => {
    const m = await invoiceMerchant(t.db);
    const first = await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const second = await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const real = getProviderServer("provider-b")!;
    // Attempt 1 on the first connection is a soft failure (the provider did not answer); attempt 2 on the second decides.
    const undo = registerProviderServer(
      {
        ...real,
        adapter: {
          ...real.adapter,
          createPayment: (context, instruction) =>
            context.connectionId === first.id
              ? Promise.resolve({ kind: "soft_failed", resolution: "provider_unavailable", message: "Provider B did not answer" })
              : real.adapter.createPayment(context, instruction),
        },
      },
      { replace: true },
    );
    let invoice: InvoiceRow;
    try {
      invoice = await exampleInvoice(m, "b-payment");
      const result = await payWithCard(t.db, invoice.id, card("4000000000000002"));
      expect(result).toMatchObject({ invoice: { status: "process_failed", resolution: "issuer_decline", attemptsCount: 2, connectionId: second.id } });
    } finally {
      undo();
    }
    const [attempt1, attempt2] = await listAttempts(t.db, invoice.id);
    expect(attempt1).toMatchObject({ seq: 1, connectionId: first.id, status: "soft_failed" });
    expect(attempt2).toMatchObject({ seq: 2, connectionId: second.id, status: "declined" });

    const late = B.sign({
      event: bSuccess(attempt1!.id, "B-late-1"),
      credentials: await credentialsOf(first.id),
      notificationId: notificationId(),
      timestamp: now(),
    });
    const response = await post("provider-b", first.id, late);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: "superseded" });

    expect(await readInvoice(t.db, invoice.id)).toMatchObject({
      status: "process_failed",
      resolution: "issuer_decline",
      processedAmountMinor: null,
      connectionId: second.id,
    });
    const [after1, after2] = await listAttempts(t.db, invoice.id);
    expect(after1).toMatchObject({ status: "soft_failed", resolution: "provider_unavailable" });
    expect(after2).toEqual(attempt2);
    expect(await storedRows(first.id)).toEqual([
      expect.objectContaining({
        outcome: "superseded",
        reason: "the invoice has moved on to attempt 2",
        invoiceId: invoice.id,
        attemptId: attempt1!.id,
        merchantId: m.merchantId,
        reported: expect.objectContaining({ status: "succeeded" }),
      }),
    ]);
  });
});
