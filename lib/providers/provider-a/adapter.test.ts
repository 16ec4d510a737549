import { createVerify } from "node:crypto";
import { publicBaseUrl } from "@/lib/config";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdapterContext } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { sampleCredentials } from "../server/sample-credentials";
import { providerAAdapter } from "./adapter";

const credentials = sampleCredentials("provider-a", "provider_account", "test");
const context = (overrides: Record<string, unknown> = {}): AdapterContext => ({
  connectionId: "conn_a",
  kind: "provider_account",
  mode: "test",
  baseUrl: `${publicBaseUrl()}/sandbox/provider-a`,
  credentials: { ...credentials, ...overrides },
  exchanges: createExchangeRecorder(),
  timeoutMs: 1000,
});

function answerWith(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe("Provider A adapter: wire format and answers", () => {
  it("signs the raw body with the private key; the payment key verifies it; merchant_id and service_code ride in the body", async () => {
    const fetch = answerWith(200, { status: "ok" });
    expect(await providerAAdapter.healthCheck(context())).toMatchObject({ kind: "ok" });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit & { headers: Record<string, string> }];
    expect(url).toBe(`${publicBaseUrl()}/sandbox/provider-a/api/v2/ping`);
    const body = String(init.body);
    expect(JSON.parse(body)).toMatchObject({ merchant_id: credentials.merchant_id, service_code: credentials.service_code });
    expect(createVerify("sha256").update(body).verify(String(credentials.payment_key), init.headers["x-signature"]!, "base64")).toBe(true);
  });

  it("429 and 5xx are soft failures; a 2xx it cannot read is unknown", async () => {
    const status = { idempotencyKey: "r-1", direction: "payment" as const };
    answerWith(429, { error: { code: "rate_limited" } });
    expect(await providerAAdapter.getStatus(context(), status)).toMatchObject({ kind: "soft_failed", resolution: "provider_unavailable" });
    answerWith(502, "bad gateway");
    expect(await providerAAdapter.getStatus(context(), status)).toMatchObject({ kind: "soft_failed", resolution: "provider_unavailable" });
    answerWith(200, { surprise: true });
    expect(await providerAAdapter.getStatus(context(), status)).toMatchObject({ kind: "unknown" });
  });

  it("an unusable private key is refused without a request", async () => {
    const fetch = answerWith(200, {});
    expect(await providerAAdapter.healthCheck(context({ private_key: "not a key" }))).toMatchObject({ kind: "credentials_refused", field: "private_key" });
    expect(fetch).not.toHaveBeenCalled();
  });
});
