import { afterEach, describe, expect, it, vi } from "vitest";
import { publicBaseUrl } from "@/lib/config";
import type { AdapterContext, CaptureInstruction, PaymentInstruction } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { providerCAdapter } from "./adapter";

const context: AdapterContext = {
  connectionId: "conn_c",
  kind: "provider_account",
  mode: "test",
  baseUrl: `${publicBaseUrl()}/sandbox/provider-c`,
  credentials: { shop_login: "demo-shop", shop_password: "pa:ss-word" },
  exchanges: createExchangeRecorder(),
  timeoutMs: 1000,
};
const basic = `Basic ${Buffer.from("demo-shop:pa:ss-word").toString("base64")}`;

function answerWith(status: number, body: unknown) {
  const fetch = vi.fn(async () => Response.json(body, { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

function sent(fetch: ReturnType<typeof vi.fn>) {
  const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
  return { url, method: init.method, authorization: init.headers.authorization, body: init.body ? (JSON.parse(String(init.body)) as unknown) : undefined };
}

const capture: CaptureInstruction = {
  captureId: "cpi_1-capture",
  invoiceId: "cpi_1",
  paymentReference: "C-ORD-1",
  paymentKey: "att_1",
  currency: "AMD",
  amount: "1031.00",
  amountMinor: 103100n,
};

afterEach(() => vi.unstubAllGlobals());

describe("Provider C adapter: authorize now, capture later", () => {
  it("an authorize-only order sends capture_mode MANUAL; an AUTHORIZED order is an authorization of authorized_minor until authorization_expires_at", async () => {
    const fetch = answerWith(201, {
      order: { id: "C-ORD-1", state: "AUTHORIZED", paid_minor: 0, authorized_minor: 103100, authorization_expires_at: "2031-01-08T10:00:00.000Z" },
    });
    const payment: PaymentInstruction = {
      invoiceId: "cpi_1",
      attemptId: "att_1",
      idempotencyKey: "att_1",
      service: "payment_card_amd_hpp",
      currency: "AMD",
      amount: "1031",
      amountMinor: 103100n,
      allowPartially: false,
      card: { number: "4242424242424242", expiryMonth: 3, expiryYear: 2031, holder: "Ann Holder" },
      customer: {},
      options: {},
      gatewayOptions: null,
      serviceFields: null,
      returnUrl: "http://app.test/pay/cpi_1/return",
      authorizeOnly: true,
    };
    expect(await providerCAdapter.createPayment(context, payment)).toEqual({
      kind: "succeeded",
      providerReference: "C-ORD-1",
      processedAmountMinor: 103100n,
      authorized: { until: new Date("2031-01-08T10:00:00.000Z") },
    });
    expect(sent(fetch).body).toMatchObject({ capture_mode: "MANUAL", amount_minor: 103100 });
  });

  it("a capture is POST /shop/captures with HTTP Basic, C's order id and minor units; CAPTURED and REJECTED are read", async () => {
    const fetch = answerWith(201, {
      capture: { id: "C-CAP-1", shop_capture_id: "cpi_1-capture", order_id: "C-ORD-1", state: "CAPTURED", amount_minor: 103100, currency_code: "AMD" },
    });
    expect(await providerCAdapter.capture!(context, capture)).toEqual({ kind: "captured", providerReference: "C-CAP-1", capturedMinor: 103100n });
    expect(sent(fetch)).toEqual({
      url: `${publicBaseUrl()}/sandbox/provider-c/shop/captures`,
      method: "POST",
      authorization: basic,
      body: { shop_capture_id: "cpi_1-capture", order_id: "C-ORD-1", amount_minor: 103100, currency_code: "AMD" },
    });
    answerWith(201, {
      capture: {
        id: "C-CAP-2",
        shop_capture_id: "cpi_1-capture",
        order_id: "C-ORD-1",
        state: "REJECTED",
        amount_minor: 0,
        currency_code: "AMD",
        rejection_reason: "PARTIAL_CAPTURE_NOT_SUPPORTED",
      },
    });
    expect(await providerCAdapter.capture!(context, capture)).toMatchObject({
      kind: "declined",
      message: expect.stringContaining("PARTIAL_CAPTURE_NOT_SUPPORTED"),
    });
  });

  it("a void is POST /shop/cancellations; the status requests GET captures/{shop_capture_id} and cancellations/{shop_cancellation_id}", async () => {
    const fetch = answerWith(201, { cancellation: { id: "C-CAN-1", shop_cancellation_id: "cpi_1-void", order_id: "C-ORD-1", state: "CANCELLED" } });
    expect(
      await providerCAdapter.voidAuthorization!(context, { voidId: "cpi_1-void", invoiceId: "cpi_1", paymentReference: "C-ORD-1", paymentKey: "att_1" }),
    ).toEqual({
      kind: "voided",
      providerReference: "C-CAN-1",
    });
    expect(sent(fetch)).toMatchObject({
      url: `${publicBaseUrl()}/sandbox/provider-c/shop/cancellations`,
      body: { shop_cancellation_id: "cpi_1-void", order_id: "C-ORD-1" },
    });

    const status = answerWith(200, { cancellation: { id: "C-CAN-1", shop_cancellation_id: "cpi 1-void", order_id: "C-ORD-1", state: "CANCELLED" } });
    expect(await providerCAdapter.getVoidStatus!(context, { voidId: "cpi 1-void", paymentReference: "C-ORD-1" })).toMatchObject({ kind: "voided" });
    expect(sent(status)).toMatchObject({ url: `${publicBaseUrl()}/sandbox/provider-c/shop/cancellations/cpi%201-void`, method: "GET" });

    const missing = answerWith(404, { error: { code: "capture_not_found", message: "none" } });
    expect(await providerCAdapter.getCaptureStatus!(context, { captureId: "cpi_1-capture", paymentReference: "C-ORD-1" })).toMatchObject({ kind: "refused" });
    expect(sent(missing).url).toBe(`${publicBaseUrl()}/sandbox/provider-c/shop/captures/cpi_1-capture`);
    answerWith(503, { error: { code: "bank_unavailable" } });
    expect(await providerCAdapter.capture!(context, capture)).toMatchObject({ kind: "refused" });
  });
});
