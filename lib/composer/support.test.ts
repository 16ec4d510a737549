import { describe, expect, it } from "vitest";
import { placeApiErrors } from "./api-errors";
import { invoiceApiBaseUrl } from "./base-url";
import { curlCommand } from "./curl";
import { newReferenceId } from "./reference-id";
import { requestsLiveInvoice } from "./test-mode";

describe("invoiceApiBaseUrl", () => {
  it("prefers INVOICE_API_BASE_URL, without a trailing slash", () => {
    expect(invoiceApiBaseUrl("https://pay.example.com/", "3000")).toEqual({ ok: true, baseUrl: "https://pay.example.com" });
  });

  it("falls back to this server over loopback, whatever Host the request named", () => {
    expect(invoiceApiBaseUrl(undefined, "3161")).toEqual({ ok: true, baseUrl: "http://127.0.0.1:3161" });
    expect(invoiceApiBaseUrl("", undefined)).toEqual({ ok: true, baseUrl: "http://127.0.0.1:3000" });
  });

  it("refuses a setting that is not an http URL, and a port that is not a number", () => {
    expect(invoiceApiBaseUrl("ftp://x", "3000").ok).toBe(false);
    expect(invoiceApiBaseUrl("not a url", "3000").ok).toBe(false);
    expect(invoiceApiBaseUrl(undefined, "evil.example").ok).toBe(false);
  });
});

describe("requestsLiveInvoice (support members: test mode only)", () => {
  it.each([
    [{ data: { attributes: { test_mode: true } } }, false],
    [{ data: { attributes: { test_mode: false } } }, true],
    [{ data: { attributes: {} } }, true],
    [{ data: { attributes: { test_mode: "true" } } }, true],
    [null, true],
  ])("%j → %s", (body, live) => {
    expect(requestsLiveInvoice(JSON.stringify(body))).toBe(live);
  });
});

describe("placeApiErrors", () => {
  it("puts pointed errors on their inputs and the rest in the alert with the status", () => {
    const body = {
      errors: [
        { status: "409", code: "reference_reused", detail: "reference_id was already used", source: { pointer: "/data/attributes/reference_id" } },
        { status: "422", code: "x", detail: "Odd", source: { pointer: "/data/meta" } },
      ],
    };
    expect(placeApiErrors(409, body)).toEqual({
      fieldErrors: { reference_id: "reference_id was already used" },
      message: "HTTP 409: /data/meta: Odd",
    });
    expect(placeApiErrors(422, { errors: [{ detail: "Bad amount", source: { pointer: "/data/attributes/amount" } }] }).message).toBe(
      "HTTP 422: The API refused the invoice; see the marked fields.",
    );
    expect(placeApiErrors(502, "Bad gateway")).toEqual({ fieldErrors: {}, message: "HTTP 502: The API gave no error details; see its answer below." });
  });
});

describe("curlCommand", () => {
  it("keeps the key a shell variable and the body verbatim", () => {
    const body = JSON.stringify({ data: { attributes: { name: "St James's" } } }, null, 2);
    const curl = curlCommand("https://pay.example.com", "payout", body);
    expect(curl).toContain("curl -X POST 'https://pay.example.com/api/commerce/payout-invoices'");
    expect(curl).toContain('-H "Authorization: Bearer $API_KEY"');
    expect(curl).toContain(`<<'JSON'\n${body}\nJSON`);
  });
});

describe("newReferenceId", () => {
  it("makes a version 4 UUID", () => {
    expect(newReferenceId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newReferenceId((b) => b.fill(255))).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
  });
});
