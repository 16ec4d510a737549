import { afterEach, describe, expect, it, vi } from "vitest";
import { publicBaseUrl } from "@/lib/config";
import type { AdapterContext } from "@/lib/providers/kit/adapter";
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

afterEach(() => vi.unstubAllGlobals());

describe("Provider C adapter: wire format and answers", () => {
  it("authenticates with HTTP Basic (login:password) and reads orders by shop_order_id", async () => {
    const fetch = vi.fn(async () => Response.json({ order: { id: "C-ORD-1", state: "PARTIALLY_PAID", paid_minor: 375 } }));
    vi.stubGlobal("fetch", fetch);
    expect(await providerCAdapter.getStatus(context, { idempotencyKey: "inv 1", direction: "payment" })).toEqual({
      kind: "succeeded",
      providerReference: "C-ORD-1",
      processedAmountMinor: 375n,
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-c/shop/orders/inv%201`);
    expect(init.headers.authorization).toBe(`Basic ${Buffer.from("demo-shop:pa:ss-word").toString("base64")}`);
    expect(JSON.stringify(context.exchanges.list())).not.toContain(Buffer.from("demo-shop:pa:ss-word").toString("base64"));
  });

  it("refunds: POST /shop/refunds with HTTP Basic, C's order id and minor units; the status reads refunds by shop_refund_id", async () => {
    const basic = `Basic ${Buffer.from("demo-shop:pa:ss-word").toString("base64")}`;
    const fetch = vi.fn(async () =>
      Response.json(
        { refund: { id: "C-REF-1", shop_refund_id: "rf 1", order_id: "C-ORD-1", state: "PROCESSING", amount_minor: 1031, currency_code: "AMD" } },
        { status: 201 },
      ),
    );
    vi.stubGlobal("fetch", fetch);
    const refund = {
      refundId: "rf 1",
      invoiceId: "cpi_1",
      paymentReference: "C-ORD-1",
      paymentKey: "att_1",
      currency: "AMD",
      amount: "10.31",
      amountMinor: 1031n,
      reason: "Customer asked",
    };
    expect(await providerCAdapter.refund(context, refund)).toEqual({ kind: "pending", providerReference: "C-REF-1" });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-c/shop/refunds`);
    expect(init.method).toBe("POST");
    expect(init.headers.authorization).toBe(basic);
    expect(JSON.parse(String(init.body))).toEqual({
      shop_refund_id: "rf 1",
      order_id: "C-ORD-1",
      amount_minor: 1031,
      currency_code: "AMD",
      reason: "Customer asked",
    });

    const status = vi.fn(async () =>
      Response.json({
        refund: {
          id: "C-REF-2",
          shop_refund_id: "rf 2",
          order_id: "C-ORD-1",
          state: "REJECTED",
          amount_minor: 100,
          currency_code: "AMD",
          rejection_reason: "EXCEEDS_PAID_AMOUNT",
        },
      }),
    );
    vi.stubGlobal("fetch", status);
    expect(await providerCAdapter.getRefundStatus(context, { refundId: "rf 2", paymentReference: "C-ORD-1" })).toMatchObject({
      kind: "declined",
      providerReference: "C-REF-2",
      message: expect.stringContaining("EXCEEDS_PAID_AMOUNT"),
    });
    const [statusUrl, statusInit] = status.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(statusUrl).toBe(`${publicBaseUrl()}/sandbox/provider-c/shop/refunds/rf%202`);
    expect(statusInit.headers.authorization).toBe(basic);
    expect(JSON.stringify(context.exchanges.list())).not.toContain(Buffer.from("demo-shop:pa:ss-word").toString("base64"));

    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: { code: "invalid_credentials" } }, { status: 401 })),
    );
    expect(await providerCAdapter.refund(context, refund)).toMatchObject({ kind: "refused", resolution: "provider_auth_error" });
  });

  it("maps C's rejections and refusals", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ order: { id: "C-ORD-2", state: "REJECTED", rejection_reason: "INSUFFICIENT_FUNDS" } })),
    );
    expect(await providerCAdapter.getStatus(context, { idempotencyKey: "x", direction: "payment" })).toMatchObject({
      kind: "declined",
      resolution: "insufficient_funds",
    });
    // C's one refusal for a login it does not know and a wrong password blames neither alone.
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: { code: "invalid_credentials" } }, { status: 401 })),
    );
    const refused = await providerCAdapter.healthCheck(context);
    expect(refused).toMatchObject({ kind: "credentials_refused" });
    expect(refused).not.toHaveProperty("field");
  });
});

describe("Provider C disputes: wire format and answers", () => {
  it("evidence: POST /shop/disputes/{id}/evidence with HTTP Basic, shop_submission_id = the service's dispute id, documents base64; answered { dispute }", async () => {
    const fetch = vi.fn(async () =>
      Response.json({
        dispute: {
          id: "C-DSP-1",
          order_id: "C-ORD-1",
          shop_order_id: "att_1",
          state: "UNDER_REVIEW",
          reason: "GOODS_NOT_RECEIVED",
          amount_minor: 500_000,
          currency_code: "AMD",
          respond_by: "2031-02-01T00:00:00.000Z",
        },
      }),
    );
    vi.stubGlobal("fetch", fetch);
    const outcome = await providerCAdapter.disputes!.submitEvidence(context, {
      disputeId: "dsp_1",
      disputeReference: "C-DSP-1",
      paymentReference: "C-ORD-1",
      text: { explanation: "Delivered" },
      files: [{ id: "file_1", filename: "receipt.pdf", contentType: "application/pdf", sha256: "ab", data: Buffer.from("%PDF") }],
    });
    expect(outcome).toMatchObject({ kind: "taken", report: { status: "under_review", reason: "not_received", amountMinor: 500_000n, currency: "AMD" } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-c/shop/disputes/C-DSP-1/evidence`);
    expect(init.headers.authorization).toBe(`Basic ${Buffer.from("demo-shop:pa:ss-word").toString("base64")}`);
    expect(JSON.parse(String(init.body))).toEqual({
      shop_submission_id: "dsp_1",
      evidence: { explanation: "Delivered" },
      documents: [{ file_name: "receipt.pdf", content_type: "application/pdf", content_base64: Buffer.from("%PDF").toString("base64") }],
    });
  });

  it("reads C's 422 codes as too late or closed; a timeout as unknown", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ error: { code: "response_period_over", message: "late" } }, { status: 422 }));
    expect(await providerCAdapter.disputes!.accept(context, { disputeId: "dsp_1", disputeReference: "C-DSP-1" })).toMatchObject({
      kind: "refused",
      code: "deadline_passed",
    });
    vi.stubGlobal("fetch", async () => {
      throw new DOMException("timed out", "TimeoutError");
    });
    expect(await providerCAdapter.disputes!.accept(context, { disputeId: "dsp_1", disputeReference: "C-DSP-1" })).toMatchObject({ kind: "unknown" });
  });
});
