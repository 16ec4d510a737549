import { describe, expect, it } from "vitest";
import type { ProviderResponse } from "@/lib/providers/kit/provider-http";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { outcomeOf, shopperOf } from "./adapter";
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
    [answered(200, payment("RedirectShopper", { action: { type: "redirect", method: "GET", url: "http://x/3ds" } })), { kind: "pending", redirectUrl: "http://x/3ds" }],
    [answered(200, payment("Refused", { refusalReason: "Refused" })), { kind: "declined", resolution: "issuer_decline" }],
    [answered(200, payment("Refused", { refusalReason: "Not enough balance" })), { kind: "declined", resolution: "insufficient_funds" }],
    [answered(200, payment("Refused", { refusalReason: "CVC Declined" })), { kind: "declined", resolution: "invalid_cvv" }],
    [answered(200, payment("Refused", { refusalReason: "3D Secure failed" })), { kind: "declined", resolution: "auth_3ds_failed" }],
    [answered(200, payment("Error")), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(401, { status: 401, errorCode: "invalid_signature", message: "no" }), { kind: "soft_failed", resolution: "provider_auth_error" }],
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
