import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdapterContext, RefundInstruction } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder, type ProviderResponse } from "@/lib/providers/kit/provider-http";
import { merchantDataOf, outcomeOf, providerDAdapter } from "./adapter";
import { signD, verifyD } from "./wire";

const answered = (status: number, body: unknown): ProviderResponse => ({ kind: "answered", status, headers: new Headers(), body, text: JSON.stringify(body) });
const transaction = (state: number, captured: number, code: number | null = null) => ({
  result: {
    transaction_id: "t",
    payment_id: "dpay_1",
    state,
    amount: 1000,
    captured_amount: captured,
    currency: "860",
    channel: "merchant",
    reject_code: code,
    card_mask: "424242******4242",
  },
});

describe("Provider D answers → outcomes", () => {
  it.each([
    [answered(200, transaction(2, 1000)), { kind: "succeeded", providerReference: "dpay_1", processedAmountMinor: 1000n }],
    [answered(200, transaction(3, 750)), { kind: "succeeded", processedAmountMinor: 750n }],
    [answered(200, transaction(-1, 0, -31630)), { kind: "declined", resolution: "issuer_decline" }],
    [answered(200, transaction(-1, 0, -31631)), { kind: "declined", resolution: "insufficient_funds" }],
    [answered(200, transaction(-1, 0, -31632)), { kind: "declined", resolution: "invalid_cvv" }],
    [answered(200, transaction(-1, 0, -31999)), { kind: "declined", resolution: "general_error" }],
    [answered(401, { error: { code: "unauthorized", message: "bad" } }), { kind: "soft_failed", resolution: "provider_auth_error" }],
    [answered(403, {}), { kind: "soft_failed", resolution: "provider_auth_error" }],
    [answered(200, transaction(-2, 0)), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(429, {}), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(503, { error: { code: "service_unavailable", message: "down" } }), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(409, { error: { code: "wrong_channel", message: "not P2P" } }), { kind: "declined", resolution: "general_error" }],
    [{ kind: "not_sent", message: "not sent: connection refused" } as const, { kind: "soft_failed", resolution: "provider_unavailable" }],
    [{ kind: "timed_out", message: "no answer within 10000 ms" } as const, { kind: "unknown" }],
  ])("%#: maps to %o", (response, expected) => {
    expect(outcomeOf(response)).toMatchObject(expected);
  });
});

describe("Provider D request rules", () => {
  const context = (credentials: Record<string, unknown>) => ({ credentials }) as unknown as AdapterContext;

  it("spec 5.1: merchant category code and URL only with 'Send merchant data' on", () => {
    const data = { merchant_category_code: "5411", merchant_url: "https://shop.example.com" };
    expect(merchantDataOf(context({ ...data, send_merchant_data: true }))).toEqual(data);
    expect(merchantDataOf(context({ ...data, send_merchant_data: false }))).toEqual({});
  });

  it("Sign is the hex HMAC-SHA512 of the exact body; any other body or key fails", () => {
    const sign = signD("secret", '{"a":1}');
    expect(sign).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyD("secret", '{"a":1}', sign)).toBe(true);
    expect(verifyD("secret", '{"a": 1}', sign)).toBe(false);
    expect(verifyD("other", '{"a":1}', sign)).toBe(false);
    expect(verifyD("secret", '{"a":1}', "zz")).toBe(false);
  });
});

describe("Provider D refunds: wire format and answers", () => {
  afterEach(() => vi.unstubAllGlobals());

  // A live connection: requests go to its own api_url, merchant data switched on (it concerns payments only).
  const live = (changes: Partial<AdapterContext> = {}): AdapterContext => ({
    connectionId: "conn_d",
    kind: "h2h",
    mode: "live",
    baseUrl: "https://api.provider-d.example/v1",
    credentials: {
      api_key: "d-api-key-0123456789",
      secret_key: "d-secret-0123456789",
      api_url: "https://api.provider-d.example/v1",
      merchant_id: "D-5501",
      service_id: "D-SVC-9",
      currency: "UZS",
      send_merchant_data: true,
      merchant_category_code: "5411",
      merchant_url: "https://shop.example.com",
      p2p: false,
    },
    exchanges: createExchangeRecorder(),
    timeoutMs: 1000,
    ...changes,
  });
  const refund: RefundInstruction = {
    refundId: "rf_1",
    invoiceId: "cpi_1",
    paymentReference: "dpay_1",
    paymentKey: "att_1",
    currency: "UZS",
    amount: "2500.50",
    amountMinor: 250_050n,
    reason: "Customer asked",
  };
  const performed = (state: number, reject: number | null = null) =>
    Response.json({
      result: { transaction_id: "rf_1", refund_id: "drf_1", payment_id: "dpay_1", state, amount: 250_050, currency: "860", reject_code: reject },
    });

  it("POSTs /refund at the api_url: transaction_id = refund id, payment_id, tiyin, numeric currency, no merchant data; Api-Key and Sign = HMAC-SHA512(body)", async () => {
    const fetch = vi.fn(async () => performed(2));
    vi.stubGlobal("fetch", fetch);
    expect(await providerDAdapter.refund(live(), refund)).toEqual({ kind: "succeeded", providerReference: "drf_1" });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe("https://api.provider-d.example/v1/refund");
    expect(init.method).toBe("POST");
    const body = String(init.body);
    expect(JSON.parse(body)).toEqual({
      merchant_id: "D-5501",
      service_id: "D-SVC-9",
      transaction_id: "rf_1",
      payment_id: "dpay_1",
      amount: 250_050,
      currency: "860",
      reason: "Customer asked",
    });
    expect(init.headers["Api-Key"]).toBe("d-api-key-0123456789");
    expect(init.headers.Sign).toBe(createHmac("sha512", "d-secret-0123456789").update(body).digest("hex"));
  });

  it("the status request POSTs /refund/status by transaction_id, signed the same way", async () => {
    const fetch = vi.fn(async () => performed(1));
    vi.stubGlobal("fetch", fetch);
    expect(await providerDAdapter.getRefundStatus(live(), { refundId: "rf_1", paymentReference: "dpay_1" })).toEqual({
      kind: "pending",
      providerReference: "drf_1",
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe("https://api.provider-d.example/v1/refund/status");
    expect(JSON.parse(String(init.body))).toEqual({ merchant_id: "D-5501", transaction_id: "rf_1" });
    expect(init.headers.Sign).toBe(createHmac("sha512", "d-secret-0123456789").update(String(init.body)).digest("hex"));
  });

  it("maps D's refund states, reject codes and refusals", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => performed(-1, -31641)),
    );
    expect(await providerDAdapter.refund(live(), refund)).toMatchObject({
      kind: "declined",
      providerReference: "drf_1",
      message: expect.stringContaining("-31641: the refunds would exceed"),
    });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: { code: "unauthorized", message: "bad" } }, { status: 401 })),
    );
    expect(await providerDAdapter.refund(live(), refund)).toMatchObject({ kind: "refused", resolution: "provider_auth_error" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: { code: "service_unavailable", message: "down" } }, { status: 503 })),
    );
    expect(await providerDAdapter.refund(live(), refund)).toMatchObject({ kind: "refused", resolution: "provider_unavailable" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: { code: "transaction_not_found", message: "none" } }, { status: 404 })),
    );
    expect(await providerDAdapter.getRefundStatus(live(), { refundId: "rf_1", paymentReference: "dpay_1" })).toMatchObject({ kind: "refused" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ result: { state: 2 } })),
    );
    expect(await providerDAdapter.refund(live(), refund)).toMatchObject({ kind: "unknown" });
  });

  it("health: D's one sign-in refusal blames no credential alone; a service_id not the merchant's is named", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: { code: "unauthorized", message: "merchant_id, Api-Key or Sign is wrong." } }, { status: 401 })),
    );
    const refused = await providerDAdapter.healthCheck(live());
    expect(refused).toMatchObject({ kind: "credentials_refused" });
    expect(refused).not.toHaveProperty("field");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json({ error: { code: "unknown_merchant", message: "This service_id does not belong to the merchant_id." } }, { status: 401 }),
      ),
    );
    expect(await providerDAdapter.healthCheck(live())).toMatchObject({ kind: "credentials_refused", field: "service_id" });
  });

  it("the live api_url guard applies to refunds: a refused address sends nothing", async () => {
    const fetch = vi.fn(async () => performed(2));
    vi.stubGlobal("fetch", fetch);
    const guarded = live({ guardUrl: async () => "the API URL is not a public address" });
    expect(await providerDAdapter.refund(guarded, refund)).toMatchObject({ kind: "refused", resolution: "provider_unavailable" });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("Provider D disputes: wire format and answers", () => {
  afterEach(() => vi.unstubAllGlobals());

  const context: AdapterContext = {
    connectionId: "conn_d",
    kind: "h2h",
    mode: "live",
    baseUrl: "https://api.provider-d.example/v1",
    credentials: { api_key: "d-api-key-0123456789", secret_key: "d-secret-0123456789", merchant_id: "D-5501", service_id: "D-SVC-9", currency: "UZS" },
    exchanges: createExchangeRecorder(),
    timeoutMs: 1000,
  };

  it("evidence: POST /dispute/evidence naming the merchant, submission_id = the service's dispute id; numeric state and reason code, tiyin and the numeric currency read back", async () => {
    const fetch = vi.fn(async () =>
      Response.json({
        result: {
          dispute_id: "ddsp_1",
          payment_id: "dpay_1",
          transaction_id: "att_1",
          state: 4,
          reason_code: 4837,
          amount: 250_050,
          currency: "860",
          respond_by: 1_927_000_000,
        },
      }),
    );
    vi.stubGlobal("fetch", fetch);
    const outcome = await providerDAdapter.disputes!.submitEvidence(context, {
      disputeId: "dsp_1",
      disputeReference: "ddsp_1",
      paymentReference: "dpay_1",
      text: { explanation: "Delivered" },
      files: [{ id: "file_1", filename: "r.pdf", contentType: "application/pdf", sha256: "ab", data: Buffer.from("%PDF") }],
    });
    expect(outcome).toMatchObject({
      kind: "taken",
      report: { status: "under_review", reason: "fraudulent", providerReason: "4837", amountMinor: 250_050n, currency: "UZS", paymentKey: "att_1" },
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe("https://api.provider-d.example/v1/dispute/evidence");
    const body = String(init.body);
    expect(JSON.parse(body)).toEqual({
      merchant_id: "D-5501",
      dispute_id: "ddsp_1",
      submission_id: "dsp_1",
      evidence: { explanation: "Delivered" },
      files: [{ name: "r.pdf", mime: "application/pdf", data: Buffer.from("%PDF").toString("base64") }],
    });
    expect(init.headers.Sign).toBe(createHmac("sha512", "d-secret-0123456789").update(body).digest("hex"));
  });

  it("reads D's error codes as too late or closed, and dispute_not_found as not found", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ error: { code: "response_deadline_passed", message: "late" } }, { status: 422 }));
    expect(await providerDAdapter.disputes!.accept(context, { disputeId: "dsp_1", disputeReference: "ddsp_1" })).toMatchObject({
      kind: "refused",
      code: "deadline_passed",
    });
    vi.stubGlobal("fetch", async () => Response.json({ error: { code: "dispute_not_found", message: "none" } }, { status: 404 }));
    expect(await providerDAdapter.disputes!.getDispute(context, { disputeReference: "ddsp_9" })).toMatchObject({ kind: "not_found" });
  });
});
