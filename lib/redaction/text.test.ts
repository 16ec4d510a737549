import { describe, expect, it } from "vitest";
import { redactText } from "./text";

/** The request log keeps bodies through redactText: each rule of ./rules.ts, as a body would carry it. */
describe("redactText", () => {
  it("masks every full card number however it is written, and only Luhn-valid ones", () => {
    for (const card of ["4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "3782 822463 10005", "5555555555554444"]) {
      const text = redactText(`{"note":"card ${card} here","n":${card.replace(/\D/g, "")}}`);
      expect(text, card).not.toContain(card);
      expect(text, card).not.toContain(card.replace(/\D/g, ""));
      expect(text).toMatch(/\d{6}\*{6}\d{4}/);
    }
    expect(redactText('{"amount":"1234567890123"}')).toBe('{"amount":"1234567890123"}');
    expect(redactText("B310000000000005e")).toBe("B310000000000005e");
  });

  it("finds a card number in a longer run of digits", () => {
    const text = redactText("4111 1111 1111 1111 1230");
    expect(text.replace(/\D/g, "")).not.toContain("4111111111111111");
  });

  it("removes the values of members named like secrets, card codes included, keeping the rest as written", () => {
    const body =
      '{"data":{"attributes":{"amount":10.009,"cvc":"123","cvv2":456,"password":"p@ss \\"word\\"","secret_key":"sk_abc","api_key":"k","label":"shop"}}}';
    expect(redactText(body)).toBe(
      '{"data":{"attributes":{"amount":10.009,"cvc":"[redacted]","cvv2":"[redacted]","password":"[redacted]","secret_key":"[redacted]","api_key":"[redacted]","label":"shop"}}}',
    );
  });

  it("finds a secret-named field's values in arrays and however deep, as the secrets scan does", () => {
    const body = JSON.stringify({ data: { attributes: { credentials: { secret_key: ["sk_live_abcdefgh", ["sk_live_ijklmnop"]] } } } });
    const text = redactText(body);
    expect(text).not.toContain("sk_live_abcdefgh");
    expect(text).not.toContain("sk_live_ijklmnop");
  });

  it("keeps masks and plain numbers, which are no secrets", () => {
    const body = '{"card_number":"411111******1111","secret_key":"••••abcd","number":"INV-0001"}';
    expect(redactText(body)).toBe(body);
  });

  it("removes key material, keys and signing secrets shown once, and form fields named like secrets", () => {
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n-----END PRIVATE KEY-----";
    const text = redactText(
      `${JSON.stringify({ private_key_pem: pem, note: "pok_test_abcdefghijklmnopqrstuvwxyz012345 whsec_abcdefghijklmnopqrstuvwx" })}\npassword=hunter22&name=shop`,
    );
    expect(text).not.toContain("MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA");
    expect(text).not.toContain("abcdefghijklmnopqrstuvwxyz012345");
    expect(text).not.toContain("whsec_abcdefghijklmnopqrstuvwx");
    expect(text).toContain("password=[redacted]&name=shop");
    // A body cut inside a key still loses what it holds of it.
    expect(redactText("-----BEGIN RSA PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0B")).toBe("[redacted]");
  });
});
