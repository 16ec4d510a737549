import { describe, expect, it } from "vitest";
import { createExchangeRecorder, type ProviderResponse } from "@/lib/providers/kit/provider-http";
import { declineResolution, findErrorCode, hideFromLog, readHealth, readStatusTransport, readTransport } from "./provider-answers";

const answered = (status: number, body: unknown = {}): ProviderResponse => ({
  kind: "answered",
  status,
  headers: new Headers(),
  body,
  text: JSON.stringify(body),
});

describe("readTransport: what the HTTP status alone says", () => {
  it.each([
    [
      answered(401, { error: { code: "invalid_signature" } }),
      { kind: "soft_failed", resolution: "provider_auth_error", message: expect.stringContaining("invalid_signature") },
    ],
    [answered(403), { kind: "soft_failed", resolution: "provider_auth_error" }],
    [answered(429), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(500), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(503), { kind: "soft_failed", resolution: "provider_unavailable" }],
    [answered(422, { error_code: "currency_not_enabled" }), { kind: "declined", resolution: "general_error" }],
    [{ kind: "not_sent", message: "not sent: connection refused" } as const, { kind: "soft_failed", resolution: "provider_unavailable" }],
    [{ kind: "timed_out", message: "no answer within 10000 ms" } as const, { kind: "unknown" }],
  ])("%o → %o", (response, outcome) => {
    expect(readTransport(response)).toEqual({ outcome: expect.objectContaining(outcome) });
  });

  it("hands a 2xx answer on for the adapter to read", () => {
    const response = answered(200, { ok: true });
    expect(readTransport(response)).toEqual({ answer: response });
  });

  it("a status request answered 404 never arrived: a soft failure, safe to send elsewhere", () => {
    expect(readStatusTransport(answered(404))).toEqual({ outcome: expect.objectContaining({ kind: "soft_failed", resolution: "provider_unavailable" }) });
    expect(readTransport(answered(404))).toEqual({ outcome: expect.objectContaining({ kind: "declined" }) });
  });
});

describe("readHealth", () => {
  const field = () => "secret_key";
  it("maps ok, refused (with the field), unreachable", () => {
    expect(readHealth(answered(200), field)).toMatchObject({ kind: "ok" });
    expect(readHealth(answered(401), field)).toMatchObject({ kind: "credentials_refused", field: "secret_key" });
    expect(readHealth({ kind: "not_sent", message: "not sent: connection refused" }, field)).toEqual({ kind: "unreachable", message: "connection refused" });
    expect(readHealth({ kind: "timed_out", message: "no answer within 10000 ms" }, field)).toMatchObject({ kind: "unreachable" });
    expect(readHealth(answered(502), field)).toEqual({ kind: "unreachable", message: "the provider answered HTTP 502" });
  });
});

describe("findErrorCode and hideFromLog", () => {
  it("finds the code however the provider nests it", () => {
    expect(findErrorCode({ error: { code: "unknown_merchant" } })).toBe("unknown_merchant");
    expect(findErrorCode({ result: "error", error_code: "bad_signature" })).toBe("bad_signature");
    expect(findErrorCode("text")).toBeUndefined();
  });

  it("hides values from exchanges recorded afterwards", () => {
    const recorder = createExchangeRecorder();
    hideFromLog(recorder, ["s3cr3t-value", undefined]);
    recorder.record({
      at: "",
      method: "POST",
      url: "/x",
      requestHeaders: { "x-auth": "s3cr3t-value" },
      requestBody: null,
      status: 200,
      responseBody: null,
      durationMs: 1,
    });
    expect(JSON.stringify(recorder.list())).not.toContain("s3cr3t-value");
  });
});

describe("declineResolution: a provider's decline table read backwards", () => {
  const table = { issuer_decline: "05", invalid_cvv: "N7" };
  it("gives the resolution whose code matches, general_error for any other code", () => {
    expect(declineResolution<string>(table, (code) => code === "N7")).toBe("invalid_cvv");
    expect(declineResolution<string>(table, (code) => code === "99")).toBe("general_error");
    // A code that names a property of every object is no decline of the table's.
    expect(declineResolution<string>(table, (code) => code === "constructor")).toBe("general_error");
  });
});
