import { createHmac } from "node:crypto";
import { publicBaseUrl } from "@/lib/config";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdapterContext, PaymentInstruction } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { providerBAdapter } from "./adapter";

const context: AdapterContext = {
  connectionId: "conn_b",
  kind: "h2h",
  mode: "test",
  baseUrl: `${publicBaseUrl()}/sandbox/provider-b`,
  credentials: { terminal_id: "TERM-1", secret_key: "b-secret-0123456789", currency: "EUR" },
  exchanges: createExchangeRecorder(),
  timeoutMs: 1000,
};

const instruction: PaymentInstruction = {
  invoiceId: "cpi_1",
  attemptId: "att_1",
  idempotencyKey: "order-1",
  service: "payment_card_eur_hpp",
  currency: "EUR",
  amount: "100.5",
  amountMinor: 10050n,
  allowPartially: true,
  card: { number: "4242424242424242", expiryMonth: 3, expiryYear: 2031, cvc: "123", holder: "Ann Holder" },
  customer: { name: "Customer", address: { country: "GB" }, language: "en" },
  options: {},
  gatewayOptions: null,
  serviceFields: null,
  returnUrl: "http://app.test/pay/cpi_1/return",
};

afterEach(() => vi.unstubAllGlobals());

describe("Provider B adapter: wire format and answers", () => {
  it("sends flat string values with lang beside the customer, signed t=…,v1=HMAC(t.body) with X-Terminal", async () => {
    const fetch = vi.fn(async () => Response.json({ result: "partial", txn: "B1", cur: "EUR", captured_sum: "75.38" }));
    vi.stubGlobal("fetch", fetch);
    expect(await providerBAdapter.createPayment(context, instruction)).toEqual({ kind: "succeeded", providerReference: "B1", processedAmountMinor: 7538n });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-b/v1/charges`);
    const body = String(init.body);
    expect(JSON.parse(body)).toMatchObject({
      terminal_id: "TERM-1",
      sum: "100.50",
      cur: "EUR",
      partial: "1",
      exp: "03/31",
      lang: "en",
      customer: { name: "Customer", address: { country: "GB" } },
    });
    expect(JSON.parse(body).customer).not.toHaveProperty("language");
    expect(init.headers["x-terminal"]).toBe("TERM-1");
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(init.headers["x-signature"]!)!;
    expect(v1).toBe(createHmac("sha256", "b-secret-0123456789").update(`${t}.${body}`).digest("hex"));
  });

  it("maps B's decline codes and refusals", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ result: "fail", txn: "B2", cur: "EUR", error_code: "cvc_mismatch" })),
    );
    expect(await providerBAdapter.createPayment(context, instruction)).toMatchObject({ kind: "declined", resolution: "invalid_cvv" });
    // B's one refusal for an unknown terminal and a wrong signature blames neither alone.
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ result: "error", error_code: "auth_failed" }, { status: 401 })),
    );
    const refused = await providerBAdapter.healthCheck(context);
    expect(refused).toMatchObject({ kind: "credentials_refused" });
    expect(refused).not.toHaveProperty("field");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ result: "error", error_code: "stale_timestamp" }, { status: 401 })),
    );
    expect(await providerBAdapter.healthCheck(context)).toMatchObject({ kind: "credentials_refused", field: "secret_key" });
  });
});

describe("Provider B disputes: wire format and answers", () => {
  const evidence = {
    disputeId: "dsp_1",
    disputeReference: "dpB1",
    paymentReference: "B1",
    text: { explanation: "Delivered", shipping_tracking: "DHL 123" },
    files: [{ id: "file_1", filename: "receipt.pdf", contentType: "application/pdf", sha256: "ab", data: Buffer.from("%PDF") }],
  };
  const dispute = (result: string) => ({
    result,
    dispute_txn: "dpB1",
    txn: "B1",
    order_ref: "att_1",
    sum: "100.50",
    cur: "EUR",
    reason_code: "fraud",
    respond_by: "2031-02-01T00:00:00.000Z",
  });

  it("evidence: POST /v1/disputes/evidence, flat text fields, base64 attachments, evidence_ref = the service's dispute id, signed like every request", async () => {
    const fetch = vi.fn(async () => Response.json(dispute("review")));
    vi.stubGlobal("fetch", fetch);
    expect(await providerBAdapter.disputes!.submitEvidence(context, evidence)).toMatchObject({
      kind: "taken",
      report: { disputeReference: "dpB1", paymentKey: "att_1", amountMinor: 10050n, reason: "fraudulent", status: "under_review" },
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-b/v1/disputes/evidence`);
    const body = String(init.body);
    expect(JSON.parse(body)).toEqual({
      terminal_id: "TERM-1",
      dispute_txn: "dpB1",
      evidence_ref: "dsp_1",
      explanation: "Delivered",
      shipping_tracking: "DHL 123",
      attachments: [{ name: "receipt.pdf", type: "application/pdf", data: Buffer.from("%PDF").toString("base64") }],
    });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(init.headers["x-signature"]!)!;
    expect(v1).toBe(createHmac("sha256", "b-secret-0123456789").update(`${t}.${body}`).digest("hex"));
  });

  it("reads B's refusals as too late or closed, and a status request's 404 as not found", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ result: "error", error_code: "respond_by_passed" }, { status: 422 }));
    expect(await providerBAdapter.disputes!.accept(context, { disputeId: "dsp_1", disputeReference: "dpB1" })).toMatchObject({
      kind: "refused",
      code: "deadline_passed",
    });
    vi.stubGlobal("fetch", async () => Response.json({ result: "error", error_code: "dispute_closed" }, { status: 422 }));
    expect(await providerBAdapter.disputes!.submitEvidence(context, evidence)).toMatchObject({ kind: "refused", code: "closed" });
    vi.stubGlobal("fetch", async () => Response.json({ result: "error", error_code: "not_found" }, { status: 404 }));
    expect(await providerBAdapter.disputes!.getDispute(context, { disputeReference: "dpB9" })).toMatchObject({ kind: "not_found" });
  });
});
