import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { publicBaseUrl } from "@/lib/config";
import type { AdapterContext, PaymentInstruction, RefundInstruction } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder, type ProviderResponse } from "@/lib/providers/kit/provider-http";
import { chargeRequestOf, outcomeOf, providerFAdapter, returnUrlOf } from "./adapter";
import { F_REFUND_DECLINES } from "./mapping";
import { signF, verifyF } from "./wire";

const answered = (status: number, body: unknown): ProviderResponse => ({ kind: "answered", status, headers: new Headers(), body, text: JSON.stringify(body) });
const charge = (status: string, extra: Record<string, unknown> = {}) => ({
  id: "ch_1",
  object: "charge",
  status,
  amount: 1000,
  amount_captured: 0,
  currency: "eur",
  livemode: false,
  ...extra,
});

describe("Provider F answers → outcomes", () => {
  it.each([
    [answered(200, charge("succeeded", { amount_captured: 1000 })), { kind: "succeeded", providerReference: "ch_1", processedAmountMinor: 1000n }],
    [
      answered(200, charge("requires_action", { next_action: { type: "redirect_to_url", url: "http://x/3ds" } })),
      { kind: "pending", redirectUrl: "http://x/3ds" },
    ],
    [answered(200, charge("failed", { failure_code: "card_declined" })), { kind: "declined", resolution: "issuer_decline" }],
    [answered(200, charge("failed", { failure_code: "insufficient_funds" })), { kind: "declined", resolution: "insufficient_funds" }],
    [answered(200, charge("failed", { failure_code: "incorrect_cvc" })), { kind: "declined", resolution: "invalid_cvv" }],
    [answered(200, charge("failed", { failure_code: "authentication_failed" })), { kind: "declined", resolution: "auth_3ds_failed" }],
    [answered(200, charge("failed", { failure_code: "processing_error" })), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [
      answered(401, { error: { type: "authentication_error", code: "missing_merchant_id", message: "No API key" } }),
      { kind: "soft_failed", resolution: "provider_auth_error" },
    ],
    [
      answered(503, { error: { type: "api_error", code: "processor_unavailable", message: "down" } }),
      { kind: "soft_failed", resolution: "provider_unavailable" },
    ],
    [answered(429, {}), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(400, { error: { type: "invalid_request_error", code: "invalid_request", message: "bad" } }), { kind: "declined", resolution: "general_error" }],
    [{ kind: "not_sent", message: "not sent: connection refused" } as const, { kind: "soft_failed", resolution: "provider_unavailable" }],
    [{ kind: "timed_out", message: "no answer" } as const, { kind: "unknown" }],
  ])("%#: maps to %o", (response, expected) => {
    expect(outcomeOf(response)).toMatchObject(expected);
  });
});

const instruction = (options: Record<string, unknown>): Omit<PaymentInstruction, "card"> => ({
  invoiceId: "cpi_1",
  referenceId: "order-1",
  attemptId: "att_1",
  idempotencyKey: "att_1",
  service: "payment_card_eur_hpp",
  currency: "EUR",
  amount: "10.00",
  amountMinor: 1000n,
  allowPartially: false,
  customer: {},
  options,
  gatewayOptions: null,
  serviceFields: null,
  returnUrl: "https://app.example.com/pay/cpi_1",
});

describe("Provider F request rules", () => {
  it("send_operation_context_on_return puts invoice_id and reference_id on the return URL; otherwise it is as given", () => {
    expect(returnUrlOf(instruction({ send_operation_context_on_return: true }))).toBe(
      "https://app.example.com/pay/cpi_1?invoice_id=cpi_1&reference_id=order-1",
    );
    expect(returnUrlOf(instruction({}))).toBe("https://app.example.com/pay/cpi_1");
  });

  it("bypass_hpp: a charge without a card carries payment_method hpp_bypass", () => {
    expect(chargeRequestOf(instruction({ bypass_hpp: true }))).toMatchObject({ amount: 1000, currency: "eur", payment_method: { type: "hpp_bypass" } });
  });

  it("spec 5.2: x-signature is the hex HMAC-SHA256 of the exact body with the secret key", () => {
    const signature = signF("dev_sec_x", '{"a":1}');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyF("dev_sec_x", '{"a":1}', signature)).toBe(true);
    expect(verifyF("dev_sec_y", '{"a":1}', signature)).toBe(false);
    expect(verifyF("dev_sec_x", "", signature)).toBe(false);
  });
});

const PUBLIC_KEY = "dev_pub_00000000-0000-4000-8000-000000000001";
const SECRET_KEY = "dev_sec_abcdefghijklmnopqrstuvwxyz012345";

const context: AdapterContext = {
  connectionId: "conn_f",
  kind: "h2h",
  mode: "test",
  baseUrl: `${publicBaseUrl()}/sandbox/provider-f`,
  credentials: { public_key: PUBLIC_KEY, secret_key: SECRET_KEY, currency: "EUR" },
  exchanges: createExchangeRecorder(),
  timeoutMs: 1000,
};

const refundInstruction: RefundInstruction = {
  refundId: "rf_1",
  invoiceId: "cpi_1",
  paymentReference: "ch_1",
  paymentKey: "att_1",
  currency: "EUR",
  amount: "40.5",
  amountMinor: 4050n,
  reason: "Customer asked",
};

const refundAnswer = (status: string, extra: Record<string, unknown> = {}) => ({
  id: "re_1",
  object: "refund",
  status,
  amount: 4050,
  currency: "eur",
  charge: "ch_1",
  reference: "rf_1",
  livemode: false,
  ...extra,
});

type Sent = [string, RequestInit & { headers: Record<string, string> }];

afterEach(() => vi.unstubAllGlobals());

describe("Provider F refunds: wire format and answers", () => {
  it("POST /v1/refunds: integer cents, lower-case currency, the charge id, the refund id as reference and idempotency-key; x-merchant-id and x-signature = HMAC(body)", async () => {
    const fetch = vi.fn(async () => Response.json(refundAnswer("succeeded")));
    vi.stubGlobal("fetch", fetch);
    expect(await providerFAdapter.refund(context, refundInstruction)).toEqual({ kind: "succeeded", providerReference: "re_1" });
    const [url, init] = fetch.mock.calls[0] as unknown as Sent;
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-f/v1/refunds`);
    expect(init.method).toBe("POST");
    const body = String(init.body);
    expect(JSON.parse(body)).toEqual({
      charge: "ch_1",
      amount: 4050,
      currency: "eur",
      reference: "rf_1",
      reason: "Customer asked",
      metadata: { invoice_id: "cpi_1" },
    });
    expect(init.headers["x-merchant-id"]).toBe(PUBLIC_KEY);
    expect(init.headers["x-signature"]).toBe(createHmac("sha256", SECRET_KEY).update(body).digest("hex"));
    expect(init.headers["idempotency-key"]).toBe("rf_1");
  });

  it("the status request: GET /v1/refunds?idempotency_key=… (or /v1/refunds/{id}), signed over the empty body", async () => {
    const fetch = vi.fn(async () => Response.json(refundAnswer("pending")));
    vi.stubGlobal("fetch", fetch);
    expect(await providerFAdapter.getRefundStatus(context, { refundId: "rf 1", paymentReference: "ch_1" })).toEqual({
      kind: "pending",
      providerReference: "re_1",
    });
    expect(await providerFAdapter.getRefundStatus(context, { refundId: "rf_1", providerReference: "re_1", paymentReference: "ch_1" })).toEqual({
      kind: "pending",
      providerReference: "re_1",
    });
    const [[byKey, init], [byId]] = fetch.mock.calls as unknown as [Sent, Sent];
    expect(byKey).toBe(`${publicBaseUrl()}/sandbox/provider-f/v1/refunds?idempotency_key=rf%201`);
    expect(byId).toBe(`${publicBaseUrl()}/sandbox/provider-f/v1/refunds/re_1`);
    expect(init.method).toBe("GET");
    expect(init.headers["x-merchant-id"]).toBe(PUBLIC_KEY);
    expect(init.headers["x-signature"]).toBe(createHmac("sha256", SECRET_KEY).update("").digest("hex"));
  });

  it.each([
    [
      Response.json(refundAnswer("failed", F_REFUND_DECLINES.exceeds)),
      { kind: "declined", providerReference: "re_1", message: expect.stringContaining("amount_exceeds_captured") },
    ],
    [
      Response.json({ error: { type: "authentication_error", code: "invalid_api_key", message: "bad" } }, { status: 401 }),
      { kind: "refused", resolution: "provider_auth_error" },
    ],
    [
      Response.json({ error: { type: "api_error", code: "processor_unavailable", message: "down" } }, { status: 503 }),
      { kind: "refused", resolution: "provider_unavailable" },
    ],
    [
      Response.json({ error: { type: "invalid_request_error", code: "charge_not_captured", message: "no" } }, { status: 422 }),
      { kind: "declined", message: expect.stringContaining("charge_not_captured") },
    ],
    [Response.json({ object: "charge", id: "ch_1" }), { kind: "unknown" }],
  ])("%#: a refund answer maps to %o", async (response, expected) => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => response),
    );
    expect(await providerFAdapter.refund(context, refundInstruction)).toMatchObject(expected);
  });

  it("a status request F answers 404 says the refund never arrived", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: { type: "invalid_request_error", code: "resource_missing", message: "No such refund." } }, { status: 404 })),
    );
    expect(await providerFAdapter.getRefundStatus(context, { refundId: "rf_1", paymentReference: "ch_1" })).toMatchObject({ kind: "refused" });
  });
});

describe("Provider F disputes: wire format and answers", () => {
  it("close (accept): POST /v1/disputes/{id}/close with the service's dispute id as reference and idempotency-key, signed; cents and a lower-case currency read back", async () => {
    const fetch = vi.fn(async () =>
      Response.json({
        id: "dp_1",
        object: "dispute",
        charge: "ch_1",
        charge_reference: "att_1",
        status: "accepted",
        reason: "product_unacceptable",
        amount: 4050,
        currency: "eur",
        evidence_details: { due_by: 1_927_000_000 },
      }),
    );
    vi.stubGlobal("fetch", fetch);
    expect(await providerFAdapter.disputes!.accept(context, { disputeId: "dsp_1", disputeReference: "dp_1" })).toMatchObject({
      kind: "taken",
      report: { status: "accepted", reason: "not_as_described", amountMinor: 4050n, currency: "EUR", evidenceDueBy: new Date(1_927_000_000_000) },
    });
    const [url, init] = fetch.mock.calls[0] as unknown as Sent;
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-f/v1/disputes/dp_1/close`);
    const body = String(init.body);
    expect(JSON.parse(body)).toEqual({ reference: "dsp_1" });
    expect(init.headers["idempotency-key"]).toBe("dsp_1");
    expect(init.headers["x-merchant-id"]).toBe(PUBLIC_KEY);
    expect(init.headers["x-signature"]).toBe(createHmac("sha256", SECRET_KEY).update(body).digest("hex"));
  });
});
