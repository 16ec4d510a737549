import { afterEach, describe, expect, it, vi } from "vitest";
import { publicBaseUrl } from "@/lib/config";
import type { AdapterContext, RefundInstruction } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder, type ProviderResponse } from "@/lib/providers/kit/provider-http";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { outcomeOf, providerEAdapter, shopperOf } from "./adapter";
import { authorizationHeader, readAuthorization, signE, signingText, verifyE } from "./wire";

const answered = (status: number, body: unknown): ProviderResponse => ({ kind: "answered", status, headers: new Headers(), body, text: JSON.stringify(body) });
const payment = (resultCode: string, extra: Record<string, unknown> = {}) => ({
  paymentId: "epay_1",
  merchantReference: "k",
  resultCode,
  amount: { value: "10.00", currency: "EUR" },
  capturedAmount: { value: "0.00", currency: "EUR" },
  ...extra,
});

describe("Provider E answers → outcomes", () => {
  it.each([
    [answered(200, payment("Authorised", { capturedAmount: { value: "10.00", currency: "EUR" } })), { kind: "succeeded", processedAmountMinor: 1000n }],
    [answered(200, payment("PartiallyAuthorised", { capturedAmount: { value: "7.50", currency: "EUR" } })), { kind: "succeeded", processedAmountMinor: 750n }],
    [
      answered(200, payment("RedirectShopper", { action: { type: "redirect", method: "GET", url: "http://x/3ds" } })),
      { kind: "pending", redirectUrl: "http://x/3ds" },
    ],
    [answered(200, payment("Refused", { refusalReason: "Refused" })), { kind: "declined", resolution: "issuer_decline" }],
    [answered(200, payment("Refused", { refusalReason: "Not enough balance" })), { kind: "declined", resolution: "insufficient_funds" }],
    [answered(200, payment("Refused", { refusalReason: "CVC Declined" })), { kind: "declined", resolution: "invalid_cvv" }],
    [answered(200, payment("Refused", { refusalReason: "3D Secure failed" })), { kind: "declined", resolution: "auth_3ds_failed" }],
    [answered(200, payment("Error")), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(401, { status: 401, errorCode: "unauthorized", message: "no" }), { kind: "soft_failed", resolution: "provider_auth_error" }],
    [answered(502, {}), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(429, {}), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(422, { status: 422, errorCode: "validation", message: "bad" }), { kind: "declined", resolution: "general_error" }],
    [{ kind: "not_sent", message: "not sent: ENOTFOUND" } as const, { kind: "soft_failed", resolution: "provider_unavailable" }],
    [{ kind: "timed_out", message: "no answer" } as const, { kind: "unknown" }],
  ])("%#: maps to %o", (response, expected) => {
    expect(outcomeOf(response)).toMatchObject(expected);
  });
});

describe("Provider E signing (spec 5.1 note 5)", () => {
  it("signs method, path, timestamp and body hash with the private key; the public key of the pair verifies, another does not", () => {
    const pair = generateKeyPair();
    const other = generateKeyPair();
    const text = signingText("POST", "/sandbox/provider-e/v2/payments", "1700000000", '{"a":1}');
    const signature = signE(pair.privateKeyPem, text);
    expect(verifyE(pair.publicKeyPem, text, signature)).toBe(true);
    expect(verifyE(other.publicKeyPem, text, signature)).toBe(false);
    expect(verifyE(pair.publicKeyPem, signingText("POST", "/sandbox/provider-e/v2/payments", "1700000001", '{"a":1}'), signature)).toBe(false);
    expect(readAuthorization(authorizationHeader("E-1", signature))).toEqual({ keyId: "E-1", signature });
    expect(readAuthorization("Bearer x")).toBeUndefined();
  });

  it("sends the customer's date of birth and address as E's shopper", () => {
    expect(shopperOf({ name: "Erika", date_of_birth: "1990-04-21", address: { country: "DE", full_address: "Heidestrasse 17" } })).toEqual({
      name: "Erika",
      dateOfBirth: "1990-04-21",
      address: { country: "DE", fullAddress: "Heidestrasse 17" },
    });
    expect(shopperOf({})).toEqual({});
  });
});

describe("Provider E refunds: wire format, signing and answers", () => {
  afterEach(() => vi.unstubAllGlobals());

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
  const refund: RefundInstruction = {
    refundId: "rf_1",
    invoiceId: "cpi_1",
    paymentReference: "epay_1",
    paymentKey: "att_1",
    currency: "EUR",
    amount: "20.5",
    amountMinor: 2050n,
    reason: "Customer asked",
  };
  const answer = (resultCode: string, extra: Record<string, unknown> = {}) =>
    Response.json({ refundId: "eref_1", paymentId: "epay_1", merchantReference: "rf_1", resultCode, amount: { value: "20.50", currency: "EUR" }, ...extra });

  /** The request the stub received, its signature checked with the pair's public key over E's signing text. */
  function sent(fetch: ReturnType<typeof vi.fn>, method: string) {
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    const { pathname, search } = new URL(url);
    const authorization = readAuthorization(init.headers.Authorization ?? null);
    const verified = verifyE(
      pair.publicKeyPem,
      signingText(method, pathname + search, init.headers["X-Timestamp"] ?? "", String(init.body ?? "")),
      authorization?.signature ?? "",
    );
    return { url, init, authorization, verified };
  }

  it("POSTs /v2/refunds with paymentId, the refund id as merchantReference and the amount in major units, signed with the private key", async () => {
    const fetch = vi.fn(async () => answer("Refunded"));
    vi.stubGlobal("fetch", fetch);
    expect(await providerEAdapter.refund(context(), refund)).toEqual({ kind: "succeeded", providerReference: "eref_1" });
    const { url, init, authorization, verified } = sent(fetch, "POST");
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-e/v2/refunds`);
    expect(init.method).toBe("POST");
    expect(JSON.parse(String(init.body))).toEqual({
      paymentId: "epay_1",
      merchantReference: "rf_1",
      amount: { value: "20.50", currency: "EUR" },
      reason: "Customer asked",
    });
    expect(init.headers.Authorization).toMatch(/^Signature keyId="E-4410",algorithm="rsa-sha256",signature="[^"]+"$/);
    expect(authorization?.keyId).toBe("E-4410");
    expect(verified).toBe(true);
  });

  it("the status request GETs /v2/refunds/{refundId} when E's id is known, else ?merchantReference=, signed over the path with its query", async () => {
    const byId = vi.fn(async () => answer("Received"));
    vi.stubGlobal("fetch", byId);
    expect(await providerEAdapter.getRefundStatus(context(), { refundId: "rf_1", providerReference: "eref_1", paymentReference: "epay_1" })).toEqual({
      kind: "pending",
      providerReference: "eref_1",
    });
    expect(sent(byId, "GET")).toMatchObject({ url: `${publicBaseUrl()}/sandbox/provider-e/v2/refunds/eref_1`, verified: true });
    const byReference = vi.fn(async () => answer("Refunded"));
    vi.stubGlobal("fetch", byReference);
    expect(await providerEAdapter.getRefundStatus(context(), { refundId: "rf 1", paymentReference: "epay_1" })).toMatchObject({ kind: "succeeded" });
    expect(sent(byReference, "GET")).toMatchObject({ url: `${publicBaseUrl()}/sandbox/provider-e/v2/refunds?merchantReference=rf%201`, verified: true });
  });

  it("maps E's refund result codes and refusals; a key that cannot sign sends nothing", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => answer("Refused", { refusalReason: "Amount Exceeds Captured" })),
    );
    expect(await providerEAdapter.refund(context(), refund)).toMatchObject({
      kind: "declined",
      providerReference: "eref_1",
      message: expect.stringContaining("Amount Exceeds Captured"),
    });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ status: 401, errorCode: "unauthorized", message: "no" }, { status: 401 })),
    );
    expect(await providerEAdapter.refund(context(), refund)).toMatchObject({
      kind: "refused",
      resolution: "provider_auth_error",
      message: expect.stringContaining("unauthorized"),
    });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ status: 422, errorCode: "not_captured", message: "no" }, { status: 422 })),
    );
    expect(await providerEAdapter.refund(context(), refund)).toMatchObject({ kind: "declined", message: expect.stringContaining("not_captured") });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ status: 503, errorCode: "unavailable", message: "down" }, { status: 503 })),
    );
    expect(await providerEAdapter.refund(context(), refund)).toMatchObject({ kind: "refused", resolution: "provider_unavailable" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ status: 404, errorCode: "not_found", message: "none" }, { status: 404 })),
    );
    expect(await providerEAdapter.getRefundStatus(context(), { refundId: "rf_1", paymentReference: "epay_1" })).toMatchObject({ kind: "refused" });
    const fetch = vi.fn(async () => answer("Refunded"));
    vi.stubGlobal("fetch", fetch);
    expect(await providerEAdapter.refund(context({ private_key: "not a key" }), refund)).toMatchObject({ kind: "refused", resolution: "provider_auth_error" });
    expect(await providerEAdapter.getRefundStatus(context({ private_key: "" }), { refundId: "rf_1", paymentReference: "epay_1" })).toMatchObject({
      kind: "unknown",
    });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("Provider E disputes: wire format, signing and answers", () => {
  afterEach(() => vi.unstubAllGlobals());

  const pair = generateKeyPair();
  const context: AdapterContext = {
    connectionId: "conn_e",
    kind: "h2h",
    mode: "test",
    baseUrl: `${publicBaseUrl()}/sandbox/provider-e`,
    credentials: { merchant_id: "E-4410", public_key: pair.publicKeyPem, private_key: pair.privateKeyPem, currency: "EUR", ignore_callback: false },
    exchanges: createExchangeRecorder(),
    timeoutMs: 1000,
  };

  it("defend: POST /v2/disputes/{disputeId}/defend in camelCase, merchantReference = the service's dispute id, signed with the private key", async () => {
    const fetch = vi.fn(async () =>
      Response.json({
        disputeId: "edsp_1",
        paymentId: "epay_1",
        paymentMerchantReference: "att_1",
        status: "Pending",
        reasonCode: "ProductNotReceived",
        amount: { value: "75.00", currency: "EUR" },
        defenseDueDate: "2031-02-01T00:00:00.000Z",
      }),
    );
    vi.stubGlobal("fetch", fetch);
    const outcome = await providerEAdapter.disputes!.submitEvidence(context, {
      disputeId: "dsp_1",
      disputeReference: "edsp_1",
      paymentReference: "epay_1",
      text: { explanation: "Delivered", shipping_tracking: "DHL 1" },
      files: [{ id: "file_1", filename: "r.pdf", contentType: "application/pdf", sha256: "ab", data: Buffer.from("%PDF") }],
    });
    expect(outcome).toMatchObject({ kind: "taken", report: { status: "under_review", reason: "not_received", amountMinor: 7_500n } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-e/v2/disputes/edsp_1/defend`);
    expect(JSON.parse(String(init.body))).toEqual({
      merchantReference: "dsp_1",
      defenseText: { explanation: "Delivered", shippingTracking: "DHL 1" },
      defenseDocuments: [{ fileName: "r.pdf", contentType: "application/pdf", content: Buffer.from("%PDF").toString("base64") }],
    });
    const { pathname } = new URL(url);
    const signature = readAuthorization(init.headers.Authorization ?? null)?.signature ?? "";
    expect(verifyE(pair.publicKeyPem, signingText("POST", pathname, init.headers["X-Timestamp"] ?? "", String(init.body)), signature)).toBe(true);
  });

  it("reads E's errorCodes as too late or closed; a private key that cannot sign sends nothing", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ status: 422, errorCode: "dispute_not_open", message: "closed" }, { status: 422 }));
    expect(await providerEAdapter.disputes!.accept(context, { disputeId: "dsp_1", disputeReference: "edsp_1" })).toMatchObject({
      kind: "refused",
      code: "closed",
    });
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const broken = { ...context, credentials: { ...context.credentials, private_key: "not a key" } };
    expect(await providerEAdapter.disputes!.accept(broken, { disputeId: "dsp_1", disputeReference: "edsp_1" })).toMatchObject({ kind: "failed" });
    expect(fetch).not.toHaveBeenCalled();
  });
});
