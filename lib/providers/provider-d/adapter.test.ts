import { describe, expect, it } from "vitest";
import type { AdapterContext } from "@/lib/providers/kit/adapter";
import type { ProviderResponse } from "@/lib/providers/kit/provider-http";
import { merchantDataOf, outcomeOf } from "./adapter";
import { signD, verifyD } from "./wire";

const answered = (status: number, body: unknown): ProviderResponse => ({ kind: "answered", status, headers: new Headers(), body, text: JSON.stringify(body) });
const transaction = (state: number, captured: number, code: number | null = null) => ({
  result: { transaction_id: "t", payment_id: "dpay_1", state, amount: 1000, captured_amount: captured, currency: "860", channel: "merchant", reject_code: code, card_mask: "424242******4242" },
});

describe("Provider D answers → outcomes", () => {
  it.each([
    [answered(200, transaction(2, 1000)), { kind: "succeeded", providerReference: "dpay_1", processedAmountMinor: 1000n }],
    [answered(200, transaction(3, 750)), { kind: "succeeded", processedAmountMinor: 750n }],
    [answered(200, transaction(-1, 0, -31630)), { kind: "declined", resolution: "issuer_decline" }],
    [answered(200, transaction(-1, 0, -31631)), { kind: "declined", resolution: "insufficient_funds" }],
    [answered(200, transaction(-1, 0, -31632)), { kind: "declined", resolution: "invalid_cvv" }],
    [answered(200, transaction(-1, 0, -31999)), { kind: "declined", resolution: "general_error" }],
    [answered(401, { error: { code: "invalid_sign", message: "bad" } }), { kind: "soft_failed", resolution: "provider_auth_error" }],
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
