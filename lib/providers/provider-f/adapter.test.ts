import { describe, expect, it } from "vitest";
import type { PaymentInstruction } from "@/lib/providers/kit/adapter";
import type { ProviderResponse } from "@/lib/providers/kit/provider-http";
import { chargeRequestOf, outcomeOf, returnUrlOf } from "./adapter";
import { signF, verifyF } from "./wire";

const answered = (status: number, body: unknown): ProviderResponse => ({ kind: "answered", status, headers: new Headers(), body, text: JSON.stringify(body) });
const charge = (status: string, extra: Record<string, unknown> = {}) => ({ id: "ch_1", object: "charge", status, amount: 1000, amount_captured: 0, currency: "eur", livemode: false, ...extra });

describe("Provider F answers → outcomes", () => {
  it.each([
    [answered(200, charge("succeeded", { amount_captured: 1000 })), { kind: "succeeded", providerReference: "ch_1", processedAmountMinor: 1000n }],
    [answered(200, charge("requires_action", { next_action: { type: "redirect_to_url", url: "http://x/3ds" } })), { kind: "pending", redirectUrl: "http://x/3ds" }],
    [answered(200, charge("failed", { failure_code: "card_declined" })), { kind: "declined", resolution: "issuer_decline" }],
    [answered(200, charge("failed", { failure_code: "insufficient_funds" })), { kind: "declined", resolution: "insufficient_funds" }],
    [answered(200, charge("failed", { failure_code: "incorrect_cvc" })), { kind: "declined", resolution: "invalid_cvv" }],
    [answered(200, charge("failed", { failure_code: "authentication_failed" })), { kind: "declined", resolution: "auth_3ds_failed" }],
    [answered(200, charge("failed", { failure_code: "processing_error" })), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(401, { error: { type: "authentication_error", code: "missing_merchant_id", message: "No API key" } }), { kind: "soft_failed", resolution: "provider_auth_error" }],
    [answered(503, { error: { type: "api_error", code: "processor_unavailable", message: "down" } }), { kind: "soft_failed", resolution: "provider_unavailable" }],
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
    expect(returnUrlOf(instruction({ send_operation_context_on_return: true }))).toBe("https://app.example.com/pay/cpi_1?invoice_id=cpi_1&reference_id=order-1");
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
