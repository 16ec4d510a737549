import { createVerify } from "node:crypto";
import { publicBaseUrl } from "@/lib/config";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdapterContext } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { sampleCredentials } from "../server/sample-credentials";
import { providerAAdapter } from "./adapter";

const credentials = sampleCredentials("provider-a", "provider_account", "test");
const context = (overrides: Record<string, unknown> = {}): AdapterContext => ({
  connectionId: "conn_a",
  kind: "provider_account",
  mode: "test",
  baseUrl: `${publicBaseUrl()}/sandbox/provider-a`,
  credentials: { ...credentials, ...overrides },
  exchanges: createExchangeRecorder(),
  timeoutMs: 1000,
});

function answerWith(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe("Provider A adapter: wire format and answers", () => {
  it("signs the raw body with the private key; the payment key verifies it; merchant_id and service_code ride in the body", async () => {
    const fetch = answerWith(200, { status: "ok" });
    expect(await providerAAdapter.healthCheck(context())).toMatchObject({ kind: "ok" });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-a/api/v2/ping`);
    const body = String(init.body);
    expect(JSON.parse(body)).toMatchObject({ merchant_id: credentials.merchant_id, service_code: credentials.service_code });
    expect(createVerify("sha256").update(body).verify(String(credentials.payment_key), init.headers["x-signature"]!, "base64")).toBe(true);
  });

  it("429 and 5xx are soft failures; a 2xx it cannot read is unknown", async () => {
    const status = { idempotencyKey: "r-1", direction: "payment" as const };
    answerWith(429, { error: { code: "rate_limited" } });
    expect(await providerAAdapter.getStatus(context(), status)).toMatchObject({ kind: "soft_failed", resolution: "provider_unavailable" });
    answerWith(502, "bad gateway");
    expect(await providerAAdapter.getStatus(context(), status)).toMatchObject({ kind: "soft_failed", resolution: "provider_unavailable" });
    answerWith(200, { surprise: true });
    expect(await providerAAdapter.getStatus(context(), status)).toMatchObject({ kind: "unknown" });
  });

  it("refunds: a signed POST to refunds naming the payment's transaction_id; the status asks the status endpoint with operation refund", async () => {
    const fetch = answerWith(200, {
      status: "refunded",
      refund_id: "A-RF-1",
      request_id: "rf_1",
      transaction_id: "A-TX-1",
      amount_refunded: "10.50",
      currency: "UAH",
    });
    const refund = {
      refundId: "rf_1",
      invoiceId: "cpi_1",
      paymentReference: "A-TX-1",
      paymentKey: "att_1",
      currency: "UAH",
      amount: "10.50",
      amountMinor: 1050n,
      reason: "Customer asked",
    };
    expect(await providerAAdapter.refund(context(), refund)).toEqual({ kind: "succeeded", providerReference: "A-RF-1" });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-a/api/v2/refunds`);
    expect(init.method).toBe("POST");
    const body = String(init.body);
    expect(JSON.parse(body)).toEqual({
      merchant_id: credentials.merchant_id,
      service_code: credentials.service_code,
      request_id: "rf_1",
      transaction_id: "A-TX-1",
      amount: "10.50",
      currency: "UAH",
      reason: "Customer asked",
    });
    expect(createVerify("sha256").update(body).verify(String(credentials.payment_key), init.headers["x-signature"]!, "base64")).toBe(true);

    const status = answerWith(200, {
      status: "declined",
      refund_id: "A-RF-2",
      request_id: "rf_2",
      transaction_id: "A-TX-1",
      amount_refunded: "1.00",
      currency: "UAH",
      decline_code: "13",
      decline_reason: "Invalid amount",
    });
    expect(await providerAAdapter.getRefundStatus(context(), { refundId: "rf_2", paymentReference: "A-TX-1" })).toEqual({
      kind: "declined",
      providerReference: "A-RF-2",
      message: "Invalid amount",
    });
    const [statusUrl, statusInit] = status.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(statusUrl).toBe(`${publicBaseUrl()}/sandbox/provider-a/api/v2/status`);
    expect(JSON.parse(String(statusInit.body))).toMatchObject({ merchant_id: credentials.merchant_id, request_id: "rf_2", operation: "refund" });
    expect(createVerify("sha256").update(String(statusInit.body)).verify(String(credentials.payment_key), statusInit.headers["x-signature"]!, "base64")).toBe(
      true,
    );
  });

  it("refunds: 503 refunded nothing, 502 may have, 404 to a status request never arrived, an unusable key is refused without a request", async () => {
    const refund = {
      refundId: "rf_3",
      invoiceId: "cpi_1",
      paymentReference: "A-TX-1",
      paymentKey: "att_1",
      currency: "UAH",
      amount: "1.00",
      amountMinor: 100n,
    };
    answerWith(503, { error: { code: "temporarily_unavailable" } });
    expect(await providerAAdapter.refund(context(), refund)).toMatchObject({ kind: "refused", resolution: "provider_unavailable" });
    answerWith(502, "bad gateway");
    expect(await providerAAdapter.refund(context(), refund)).toMatchObject({ kind: "unknown" });
    answerWith(200, { status: "approved", transaction_id: "A-TX-1", currency: "UAH" });
    expect(await providerAAdapter.refund(context(), refund)).toMatchObject({ kind: "unknown" });
    answerWith(404, { error: { code: "not_found" } });
    expect(await providerAAdapter.getRefundStatus(context(), { refundId: "rf_3", paymentReference: "A-TX-1" })).toMatchObject({ kind: "refused" });
    const fetch = answerWith(200, {});
    expect(await providerAAdapter.refund(context({ private_key: "not a key" }), refund)).toMatchObject({ kind: "refused", resolution: "provider_auth_error" });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("an unusable private key is refused without a request", async () => {
    const fetch = answerWith(200, {});
    expect(await providerAAdapter.healthCheck(context({ private_key: "not a key" }))).toMatchObject({ kind: "credentials_refused", field: "private_key" });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("Provider A disputes: wire format and answers", () => {
  const dispute = {
    dispute_id: "A-DP-1",
    transaction_id: "A-TX-1",
    request_id: "att_1",
    status: "won",
    reason_code: "13.1",
    amount_disputed: "100.00",
    currency: "UAH",
    evidence_due_at: "2031-02-01T00:00:00.000Z",
  };

  it("the status request is the signed status endpoint with operation dispute and the dispute_id", async () => {
    const fetch = answerWith(200, dispute);
    expect(await providerAAdapter.disputes!.getDispute(context(), { disputeReference: "A-DP-1" })).toMatchObject({
      kind: "found",
      report: { disputeReference: "A-DP-1", paymentReference: "A-TX-1", paymentKey: "att_1", amountMinor: 10_000n, reason: "not_received", status: "won" },
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-a/api/v2/status`);
    const body = String(init.body);
    expect(JSON.parse(body)).toEqual({
      merchant_id: credentials.merchant_id,
      service_code: credentials.service_code,
      operation: "dispute",
      dispute_id: "A-DP-1",
    });
    expect(createVerify("sha256").update(body).verify(String(credentials.payment_key), init.headers["x-signature"]!, "base64")).toBe(true);
  });

  it("evidence carries request_id = the service's dispute id and base64 attachments; A's 422 codes read as too late or closed", async () => {
    const fetch = answerWith(422, { error: { code: "evidence_window_closed", message: "late" } });
    const outcome = await providerAAdapter.disputes!.submitEvidence(context(), {
      disputeId: "dsp_1",
      disputeReference: "A-DP-1",
      paymentReference: "A-TX-1",
      text: { explanation: "Delivered" },
      files: [{ id: "file_1", filename: "r.pdf", contentType: "application/pdf", sha256: "ab", data: Buffer.from("%PDF") }],
    });
    expect(outcome).toMatchObject({ kind: "refused", code: "deadline_passed" });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-a/api/v2/disputes/evidence`);
    expect(JSON.parse(String(init.body))).toMatchObject({
      request_id: "dsp_1",
      dispute_id: "A-DP-1",
      evidence: { explanation: "Delivered" },
      attachments: [{ file_name: "r.pdf", content_type: "application/pdf", sha256: "ab", content_base64: Buffer.from("%PDF").toString("base64") }],
    });
    answerWith(422, { error: { code: "dispute_not_open", message: "closed" } });
    expect(await providerAAdapter.disputes!.accept(context(), { disputeId: "dsp_1", disputeReference: "A-DP-1" })).toMatchObject({
      kind: "refused",
      code: "closed",
    });
  });
});
