import { afterEach, describe, expect, it, vi } from "vitest";
import { publicBaseUrl } from "@/lib/config";
import type { AdapterContext, CaptureInstruction, PaymentInstruction } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { providerEAdapter } from "./adapter";
import { readAuthorization, signingText, verifyE } from "./wire";

const pair = generateKeyPair();
const context = (credentials: Record<string, unknown> = {}): AdapterContext => ({
  connectionId: "conn_e",
  kind: "h2h",
  mode: "test",
  baseUrl: `${publicBaseUrl()}/sandbox/provider-e`,
  credentials: {
    merchant_id: "E-4410",
    public_key: pair.publicKeyPem,
    private_key: pair.privateKeyPem,
    currency: "EUR",
    ignore_callback: false,
    ...credentials,
  },
  exchanges: createExchangeRecorder(),
  timeoutMs: 1000,
});

function answerWith(status: number, body: unknown) {
  const fetch = vi.fn(async () => Response.json(body, { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

/** The request the stub received, its signature checked with the pair's public key over E's signing text. */
function sent(fetch: ReturnType<typeof vi.fn>) {
  const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
  const { pathname, search } = new URL(url);
  const method = String(init.method);
  const verified = verifyE(
    pair.publicKeyPem,
    signingText(method, pathname + search, init.headers["X-Timestamp"] ?? "", String(init.body ?? "")),
    readAuthorization(init.headers.Authorization ?? null)?.signature ?? "",
  );
  return { path: pathname + search, method, body: init.body ? (JSON.parse(String(init.body)) as unknown) : undefined, verified };
}

const capture: CaptureInstruction = {
  captureId: "cpi_1-capture",
  invoiceId: "cpi_1",
  paymentReference: "epay_1",
  paymentKey: "att_1",
  currency: "EUR",
  amount: "75.00",
  amountMinor: 7500n,
};

afterEach(() => vi.unstubAllGlobals());

describe("Provider E adapter: authorize now, capture later", () => {
  it('an authorize-only payment sends captureMode "manual"; Authorised with captureMode manual is an authorization of authorisedAmount', async () => {
    const fetch = answerWith(200, {
      paymentId: "epay_1",
      merchantReference: "att_1",
      resultCode: "Authorised",
      amount: { value: "75.00", currency: "EUR" },
      capturedAmount: { value: "0.00", currency: "EUR" },
      captureMode: "manual",
      authorisedAmount: { value: "75.00", currency: "EUR" },
      authorisationExpiresAt: "2031-01-08T10:00:00.000Z",
    });
    const payment: PaymentInstruction = {
      invoiceId: "cpi_1",
      attemptId: "att_1",
      idempotencyKey: "att_1",
      service: "payment_card_eur_hpp",
      currency: "EUR",
      amount: "75",
      amountMinor: 7500n,
      allowPartially: false,
      card: { number: "4242424242424242", expiryMonth: 3, expiryYear: 2031, holder: "Ann Holder" },
      customer: {},
      options: {},
      gatewayOptions: null,
      serviceFields: null,
      returnUrl: "http://app.test/pay/cpi_1/return",
      authorizeOnly: true,
    };
    expect(await providerEAdapter.createPayment(context(), payment)).toEqual({
      kind: "succeeded",
      providerReference: "epay_1",
      processedAmountMinor: 7500n,
      authorized: { until: new Date("2031-01-08T10:00:00.000Z") },
    });
    expect(sent(fetch).body).toMatchObject({ captureMode: "manual", merchantReference: "att_1" });
  });

  it("a capture POSTs /v2/payments/{paymentId}/captures, signed, with merchantReference and the amount in major units; Captured and Refused are read", async () => {
    const fetch = answerWith(200, {
      captureId: "ecap_1",
      paymentId: "epay_1",
      merchantReference: "cpi_1-capture",
      status: "Captured",
      amount: { value: "75.00", currency: "EUR" },
    });
    expect(await providerEAdapter.capture!(context(), capture)).toEqual({ kind: "captured", providerReference: "ecap_1", capturedMinor: 7500n });
    expect(sent(fetch)).toEqual({
      path: "/sandbox/provider-e/v2/payments/epay_1/captures",
      method: "POST",
      body: { merchantReference: "cpi_1-capture", amount: { value: "75.00", currency: "EUR" } },
      verified: true,
    });
    answerWith(200, {
      captureId: "ecap_2",
      paymentId: "epay_1",
      merchantReference: "cpi_1-capture",
      status: "Refused",
      refusalReason: "Partial capture not supported",
      amount: { value: "0.00", currency: "EUR" },
    });
    expect(await providerEAdapter.capture!(context(), capture)).toEqual({
      kind: "declined",
      providerReference: "ecap_2",
      message: "Provider E refused the capture: Partial capture not supported",
    });
  });

  it("a void POSTs …/cancels; status requests GET captures and cancels by merchantReference; a key that cannot sign sends nothing", async () => {
    const fetch = answerWith(200, { cancelId: "ecan_1", paymentId: "epay_1", merchantReference: "cpi_1-void", status: "Cancelled" });
    expect(
      await providerEAdapter.voidAuthorization!(context(), { voidId: "cpi_1-void", invoiceId: "cpi_1", paymentReference: "epay_1", paymentKey: "att_1" }),
    ).toEqual({
      kind: "voided",
      providerReference: "ecan_1",
    });
    expect(sent(fetch)).toMatchObject({ path: "/sandbox/provider-e/v2/payments/epay_1/cancels", body: { merchantReference: "cpi_1-void" }, verified: true });

    const status = answerWith(200, {
      captureId: "ecap_1",
      paymentId: "epay_1",
      merchantReference: "cpi 1",
      status: "Captured",
      amount: { value: "75.00", currency: "EUR" },
    });
    expect(await providerEAdapter.getCaptureStatus!(context(), { captureId: "cpi 1", paymentReference: "epay_1" })).toMatchObject({ kind: "captured" });
    expect(sent(status)).toMatchObject({ path: "/sandbox/provider-e/v2/captures?merchantReference=cpi%201", method: "GET", verified: true });

    const missing = answerWith(404, { status: 404, errorCode: "not_found", message: "No cancel of this merchant with this merchantReference." });
    expect(await providerEAdapter.getVoidStatus!(context(), { voidId: "cpi_1-void", paymentReference: "epay_1" })).toMatchObject({ kind: "refused" });
    expect(sent(missing).path).toBe("/sandbox/provider-e/v2/cancels?merchantReference=cpi_1-void");

    const nothing = answerWith(200, {});
    expect(await providerEAdapter.capture!(context({ private_key: "not a key" }), capture)).toMatchObject({ kind: "refused" });
    expect(await providerEAdapter.getCaptureStatus!(context({ private_key: "" }), { captureId: "cpi_1-capture", paymentReference: "epay_1" })).toMatchObject({
      kind: "unknown",
    });
    expect(nothing).not.toHaveBeenCalled();
  });
});
