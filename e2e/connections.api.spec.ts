import { expect, test } from "@playwright/test";
import { PROVIDERS } from "../lib/providers";
import { merchantWithKey } from "./support/accounts";
import { fKeys } from "./support/connections";

const JSON_HEADERS = { "Content-Type": "application/vnd.api+json" };

function connectionBody(attributes: Record<string, unknown>) {
  return { data: { type: "connection", attributes } };
}

test("management API over HTTP: create, read, update keeping the secret, delete; other merchants see 404", async ({ browser, request }) => {
  const owner = await merchantWithKey(browser);
  const stranger = await merchantWithKey(browser);
  const auth = { Authorization: `Bearer ${owner.apiKey}`, ...JSON_HEADERS };
  const keys = fKeys("dev");

  const created = await request.post("/api/connections", {
    headers: auth,
    data: connectionBody({
      provider: "provider-f",
      kind: "h2h",
      label: "F over HTTP",
      credentials: { public_key: keys.publicKey, secret_key: keys.secretKey, test_mode: true, currency: "EUR" },
      constants: { COUNTRY: "de" },
    }),
  });
  expect(created.status()).toBe(201);
  const body = await created.json();
  const id: string = body.data.id;
  expect(id).toMatch(/^conn_/);
  expect(created.headers()["location"]).toBe(`${process.env.APP_URL ?? "http://127.0.0.1:" + (process.env.E2E_PORT ?? 3107)}/api/connections/${id}`);
  expect(body.data.attributes).toMatchObject({ mode: "test", enabled: true, services: ["payment_card_eur_hpp"], constants: { COUNTRY: "DE" } });
  expect(body.data.attributes.credentials).toEqual({
    public_key: keys.publicKey,
    secret_key: `••••${keys.secretKey.slice(-4)}`,
    test_mode: true,
    currency: "EUR",
  });

  const patched = await request.patch(`/api/connections/${id}`, { headers: auth, data: connectionBody({ label: "F renamed" }) });
  expect(patched.status()).toBe(200);
  expect((await patched.json()).data.attributes.credentials.secret_key).toBe(`••••${keys.secretKey.slice(-4)}`);

  const strangerAuth = { Authorization: `Bearer ${stranger.apiKey}`, ...JSON_HEADERS };
  expect((await request.get(`/api/connections/${id}`, { headers: strangerAuth })).status()).toBe(404);
  expect((await request.patch(`/api/connections/${id}`, { headers: strangerAuth, data: connectionBody({ label: "mine" }) })).status()).toBe(404);
  expect((await request.delete(`/api/connections/${id}`, { headers: strangerAuth })).status()).toBe(404);

  const read = await request.get(`/api/connections/${id}`, { headers: auth });
  expect((await read.json()).data.attributes.label).toBe("F renamed");
  expect((await request.delete(`/api/connections/${id}`, { headers: auth })).status()).toBe(204);
  expect((await request.get(`/api/connections/${id}`, { headers: auth })).status()).toBe(404);
});

test.describe("management API refuses bad input with the right status and pointers, never 500", () => {
  let apiKey = "";
  test.beforeAll(async ({ browser }) => {
    apiKey = (await merchantWithKey(browser)).apiKey;
  });

  const cases: { name: string; headers?: Record<string, string>; body: string; status: number; pointers?: string[] }[] = [
    { name: "malformed JSON", body: '{"data": ', status: 400 },
    { name: "text/plain", headers: { "Content-Type": "text/plain" }, body: "{}", status: 415 },
    { name: "body over 64 KiB", body: JSON.stringify(connectionBody({ label: "x".repeat(70_000) })), status: 413 },
    { name: "wrong type", body: JSON.stringify({ data: { type: "invoice", attributes: {} } }), status: 422, pointers: ["/data/type"] },
    {
      name: "missing label, bad F public key and an unknown field at once",
      body: JSON.stringify(
        connectionBody({
          provider: "provider-f",
          kind: "h2h",
          credentials: { public_key: "nope", secret_key: fKeys("dev").secretKey, test_mode: true, currency: "EUR", extra: 1 },
        }),
      ),
      status: 422,
      pointers: ["/data/attributes/label", "/data/attributes/credentials/public_key", "/data/attributes/credentials/extra"],
    },
    {
      name: "unknown provider",
      body: JSON.stringify(connectionBody({ provider: "provider-z", kind: "h2h", label: "z", mode: "test" })),
      status: 422,
      pointers: ["/data/attributes/provider"],
    },
    {
      name: "kind the provider does not offer",
      body: JSON.stringify(connectionBody({ provider: "provider-b", kind: "provider_account", label: "b", mode: "test" })),
      status: 422,
      pointers: ["/data/attributes/kind"],
    },
  ];

  for (const c of cases) {
    test(c.name, async ({ request }) => {
      const response = await request.post("/api/connections", {
        headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", "X-Request-Id": `e2e-${c.status}`, ...c.headers },
        data: Buffer.from(c.body),
      });
      expect(response.status()).toBe(c.status);
      expect(response.headers()["x-request-id"]).toBe(`e2e-${c.status}`);
      const errors = (await response.json()).errors as { source?: { pointer: string } }[];
      expect(errors.length).toBeGreaterThan(0);
      if (c.pointers) expect(errors.map((e) => e.source?.pointer).sort()).toEqual([...c.pointers].sort());
    });
  }

  test("no key and a bad key are 401", async ({ request }) => {
    expect((await request.get("/api/connections")).status()).toBe(401);
    expect((await request.get("/api/connections", { headers: { Authorization: "Bearer pok_wrong" } })).status()).toBe(401);
  });
});

test("GET /api/providers is public and describes the registry without secrets", async ({ request }) => {
  const response = await request.get("/api/providers");
  expect(response.status()).toBe(200);
  const { data } = await response.json();
  expect(data.map((p: { type: string; id: string }) => `${p.type}:${p.id}`)).toEqual(PROVIDERS.map((p) => `provider:${p.slug}`));
  const f = data.find((p: { id: string }) => p.id === "provider-f").attributes.kinds[0];
  expect(f.fields.find((x: { id: string }) => x.id === "secret_key")).toMatchObject({ input: "secret", secret: true, required: true });
  expect(f.constants.find((x: { name: string }) => x.name === "COUNTRY_PHONE_CODE").target).toBe("customer.constants.customer_country_phone_code");
});
