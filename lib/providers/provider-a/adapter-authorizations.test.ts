import { createVerify } from "node:crypto";
import { publicBaseUrl } from "@/lib/config";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdapterContext, CaptureInstruction, PaymentInstruction } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { sampleCredentials } from "../server/sample-credentials";
import { providerAAdapter } from "./adapter";

const credentials = sampleCredentials("provider-a", "provider_account", "test");
const context = (): AdapterContext => ({
  connectionId: "conn_a",
  kind: "provider_account",
  mode: "test",
  baseUrl: `${publicBaseUrl()}/sandbox/provider-a`,
  credentials,
  exchanges: createExchangeRecorder(),
  timeoutMs: 1000,
});

function answerWith(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

/** The one request the stub received: its path, its body, and whether the payment key verifies its signature. */
function sent(fetch: ReturnType<typeof vi.fn>) {
  const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
  const body = String(init.body);
  return {
    path: new URL(url).pathname,
    body: JSON.parse(body) as Record<string, unknown>,
    verified: createVerify("sha256").update(body).verify(String(credentials.payment_key), init.headers["x-signature"]!, "base64"),
  };
}

const payment: PaymentInstruction = {
  invoiceId: "cpi_1",
  attemptId: "att_1",
  idempotencyKey: "att_1",
  service: "payment_card_eur_hpp",
  currency: "EUR",
  amount: "100",
  amountMinor: 10000n,
  allowPartially: false,
  card: { number: "4242424242424242", expiryMonth: 3, expiryYear: 2031, cvc: "123", holder: "Ann Holder" },
  customer: {},
  options: {},
  gatewayOptions: null,
  serviceFields: null,
  returnUrl: "http://app.test/pay/cpi_1/return",
  authorizeOnly: true,
};

const capture: CaptureInstruction = {
  captureId: "cpi_1-capture",
  invoiceId: "cpi_1",
  paymentReference: "A-TX-1",
  paymentKey: "att_1",
  currency: "EUR",
  amount: "60.00",
  amountMinor: 6000n,
};

afterEach(() => vi.unstubAllGlobals());

describe("Provider A adapter: authorize now, capture later", () => {
  it("an authorize-only payment sends capture: false, and A's authorized answer is an authorization until authorization_expires_at", async () => {
    const fetch = answerWith(200, {
      status: "authorized",
      transaction_id: "A-TX-1",
      request_id: "att_1",
      currency: "EUR",
      amount_authorized: "100.00",
      amount_processed: "0.00",
      authorization_expires_at: "2031-01-08T10:00:00.000Z",
    });
    expect(await providerAAdapter.createPayment(context(), payment)).toEqual({
      kind: "succeeded",
      providerReference: "A-TX-1",
      processedAmountMinor: 10000n,
      authorized: { until: new Date("2031-01-08T10:00:00.000Z") },
    });
    expect(sent(fetch).body).toMatchObject({ capture: false, request_id: "att_1", amount: "100.00" });
  });

  it("a capture is a signed POST to captures with request_id, transaction_id and decimal amount; captured and declined answers are read", async () => {
    const fetch = answerWith(200, {
      status: "captured",
      capture_id: "A-CP-1",
      request_id: "cpi_1-capture",
      transaction_id: "A-TX-1",
      amount_captured: "60.00",
      amount_released: "40.00",
      currency: "EUR",
    });
    expect(await providerAAdapter.capture!(context(), capture)).toEqual({ kind: "captured", providerReference: "A-CP-1", capturedMinor: 6000n });
    const request = sent(fetch);
    expect(request.path).toBe("/sandbox/provider-a/api/v2/captures");
    expect(request.verified).toBe(true);
    expect(request.body).toEqual({
      merchant_id: credentials.merchant_id,
      service_code: credentials.service_code,
      request_id: "cpi_1-capture",
      transaction_id: "A-TX-1",
      amount: "60.00",
      currency: "EUR",
    });
    answerWith(200, {
      status: "declined",
      capture_id: "A-CP-2",
      request_id: "cpi_1-capture",
      transaction_id: "A-TX-1",
      amount_captured: "0.00",
      currency: "EUR",
      decline_code: "54",
      decline_reason: "Authorization expired",
    });
    expect(await providerAAdapter.capture!(context(), capture)).toEqual({ kind: "declined", providerReference: "A-CP-2", message: "Authorization expired" });
  });

  it("a void is a signed POST to voids; the status endpoint is asked with operation capture or void; no answer is unknown, a 404 on a status request never arrived", async () => {
    const fetch = answerWith(200, { status: "voided", void_id: "A-VD-1", request_id: "cpi_1-void", transaction_id: "A-TX-1" });
    expect(
      await providerAAdapter.voidAuthorization!(context(), { voidId: "cpi_1-void", invoiceId: "cpi_1", paymentReference: "A-TX-1", paymentKey: "att_1" }),
    ).toEqual({ kind: "voided", providerReference: "A-VD-1" });
    expect(sent(fetch)).toMatchObject({
      path: "/sandbox/provider-a/api/v2/voids",
      body: { request_id: "cpi_1-void", transaction_id: "A-TX-1" },
      verified: true,
    });

    const status = answerWith(200, { status: "voided", void_id: "A-VD-1", request_id: "cpi_1-void", transaction_id: "A-TX-1" });
    expect(await providerAAdapter.getVoidStatus!(context(), { voidId: "cpi_1-void", paymentReference: "A-TX-1" })).toMatchObject({ kind: "voided" });
    expect(sent(status)).toMatchObject({ path: "/sandbox/provider-a/api/v2/status", body: { request_id: "cpi_1-void", operation: "void" } });

    const asked = answerWith(404, { error: { code: "not_found", message: "No capture with request_id cpi_1-capture." } });
    expect(await providerAAdapter.getCaptureStatus!(context(), { captureId: "cpi_1-capture", paymentReference: "A-TX-1" })).toMatchObject({ kind: "refused" });
    expect(sent(asked).body).toMatchObject({ request_id: "cpi_1-capture", operation: "capture" });

    answerWith(502, "bad gateway");
    expect(await providerAAdapter.capture!(context(), capture)).toMatchObject({ kind: "unknown" });
    answerWith(200, { surprise: true });
    expect(await providerAAdapter.capture!(context(), capture)).toMatchObject({ kind: "unknown" });
  });
});
