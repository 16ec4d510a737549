import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { keySummary } from "@/lib/connections/key-fingerprint";
import { GET, POST } from "@/app/api/connections/route";
import { DELETE, GET as GET_ONE, PATCH } from "@/app/api/connections/[id]/route";
import { GET as GET_PROVIDERS } from "@/app/api/providers/route";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/queries";
import type { RouteHandler } from "@/lib/api/run-logged";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findConnectionRow } from "@/lib/connections/queries";
import { revealCredentials } from "@/lib/connections/store";
import { publicBaseUrl } from "@/lib/config";
import { logger } from "@/lib/logger";
import { describeRegistry, PROVIDERS } from "@/lib/providers";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { assertValidApiResponse } from "../helpers/api-validator";
import { unique, setUpTestDb } from "./helpers/db";
import { invoiceMerchant } from "./helpers/invoice-fixtures";
import { PROVIDER_KINDS, createAttributes, kindSpec, leaksIn, newMerchantWithKey, secretFieldIds } from "./helpers/connection-fixtures";

/** A secret's masked hint: key files by type and public fingerprint, other secrets by their last four characters. */
function hintFor(value: unknown): string {
  const text = String(value);
  return text.includes("-----BEGIN") ? keySummary(text)! : `••••${text.slice(-4)}`;
}

const t = setUpTestDb();
/** The app's vault key, from CREDENTIALS_KEY (set in tests/integration/setup.ts). */
const vaultKey = Buffer.from(process.env.CREDENTIALS_KEY!, "base64");

let loggedErrors: unknown[] = [];
beforeEach(() => {
  resetRateLimits();
  loggedErrors = [];
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "error").mockImplementation((...args: unknown[]) => {
    loggedErrors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  // An unhandled error is a 500 the client cannot act on; no test here should cause one.
  expect(loggedErrors).toEqual([]);
});

type ErrorObject = { status: string; code: string; title: string; detail: string; source?: { pointer: string } };
type Resource = {
  type: string;
  id: string;
  attributes: {
    provider: string;
    kind: string;
    label: string;
    mode: "test" | "live";
    enabled: boolean;
    currency: string | null;
    credentials: Record<string, unknown>;
    constants: Record<string, string>;
    services: string[];
    created: string;
    updated: string;
  };
  links: { self: string };
};
type Doc = { data: Resource; errors: ErrorObject[]; meta: { request_id?: string; count?: number } };
type Answer = { status: number; headers: Headers; text: string; json: Doc };

const asList = (answer: Answer) => answer.json.data as unknown as Resource[];

type Call = {
  method?: string;
  path?: string;
  key?: string | null;
  body?: unknown;
  rawBody?: BodyInit;
  contentType?: string;
  headers?: Record<string, string>;
};

/** Every answer must carry a request id and must never be a 500. */
async function send<P>(handler: RouteHandler<P>, params: P, call: Call): Promise<Answer> {
  const headers = new Headers(call.headers);
  if (call.key) headers.set("authorization", `Bearer ${call.key}`);
  const hasBody = call.body !== undefined || call.rawBody !== undefined;
  if (hasBody) headers.set("content-type", call.contentType ?? "application/json");
  const init: RequestInit & { duplex?: "half" } = { method: call.method ?? "GET", headers };
  if (hasBody) init.body = call.rawBody ?? JSON.stringify(call.body);
  if (call.rawBody instanceof ReadableStream) init.duplex = "half";
  const response = await handler(new Request(`http://test${call.path ?? "/api/connections"}`, init), { params: Promise.resolve(params) });
  const text = response.status === 204 ? "" : await response.text();
  expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(response.status).toBeLessThan(500);
  // Every answer is held to the OpenAPI document and the official JSON:API schema.
  assertValidApiResponse({ method: init.method!, url: call.path ?? "/api/connections", status: response.status, headers: response.headers, body: text });
  return { status: response.status, headers: response.headers, text, json: (text ? JSON.parse(text) : undefined) as Doc };
}

const envelope = (attributes: Record<string, unknown>, type = "connection") => ({ data: { type, attributes } });

const createCall = (key: string, attributes: Record<string, unknown>) => send(POST, {}, { method: "POST", key, body: envelope(attributes) });
const listCall = (key: string | null, query = "") => send(GET, {}, { key, path: `/api/connections${query}` });
const readCall = (key: string | null, id: string) => send(GET_ONE, { id }, { key, path: `/api/connections/${id}` });
const patchCall = (key: string, id: string, attributes: Record<string, unknown>) =>
  send(PATCH, { id }, { method: "PATCH", key, path: `/api/connections/${id}`, body: envelope(attributes) });
const deleteCall = (key: string, id: string) => send(DELETE, { id }, { method: "DELETE", key, path: `/api/connections/${id}` });

/**
 * A PATCH naming every editable attribute: nulls for those left alone, `enabled` as stored.
 * (A PATCH that leaves attributes out is refused today; see "partial PATCH" below.)
 */
function fullEdit(enabled: boolean, changes: Record<string, unknown>) {
  return { label: null, mode: null, enabled, credentials: null, constants: null, ...changes };
}

function pointers(answer: Answer): string[] {
  return answer.json.errors.map((e) => e.source?.pointer ?? "(none)").sort();
}

async function createOk(key: string, attributes: Record<string, unknown>): Promise<Resource> {
  const answer = await createCall(key, attributes);
  if (answer.status !== 201) throw new Error(`setup: ${answer.status} ${answer.text}`);
  return answer.json.data;
}

async function storedCredentials(merchantId: string, id: string) {
  const row = await findConnectionRow(t.db, merchantId, id);
  if (!row) throw new Error(`no row ${id}`);
  return revealCredentials(row, vaultKey);
}

describe("POST /api/connections", () => {
  let owner: { merchantId: string; key: string };
  beforeAll(async () => {
    owner = await newMerchantWithKey(t.db);
  });

  it.each(PROVIDER_KINDS)("creates %s %s: 201, Location, secrets masked, other values in full", async (provider, kind) => {
    const attributes = createAttributes(provider, kind, "test");
    const answer = await createCall(owner.key, attributes);
    expect(answer.status).toBe(201);
    const data = answer.json.data;
    expect(data.id).toMatch(/^conn_[A-Za-z0-9_-]{22}$/);
    expect(data.type).toBe("connection");
    // Absolute, on APP_URL, never on the Host the request named (http://test here).
    expect(answer.headers.get("location")).toBe(`${publicBaseUrl()}/api/connections/${data.id}`);
    expect(data.links.self).toBe(`${publicBaseUrl()}/api/connections/${data.id}`);
    expect(answer.headers.get("content-type")).toBe("application/vnd.api+json");
    expect(data.attributes).toMatchObject({ provider, kind, label: attributes.label, mode: "test", enabled: true });

    const secrets = secretFieldIds(provider, kind);
    const stored = await storedCredentials(owner.merchantId, data.id);
    for (const field of kindSpec(provider, kind).fields) {
      const sent = stored[field.id];
      if (sent === undefined) {
        expect(data.attributes.credentials).not.toHaveProperty(field.id);
      } else if (secrets.includes(field.id)) {
        expect(data.attributes.credentials[field.id]).toBe(hintFor(sent));
      } else {
        expect(data.attributes.credentials[field.id]).toEqual(sent);
      }
    }
    expect(
      leaksIn(
        answer.text,
        secrets.map((id) => String(stored[id])),
      ),
    ).toEqual([]);
  });

  it("accepts application/vnd.api+json", async () => {
    const answer = await send(
      POST,
      {},
      {
        method: "POST",
        key: owner.key,
        body: envelope(createAttributes("provider-c", "provider_account")),
        contentType: "application/vnd.api+json",
      },
    );
    expect(answer.status).toBe(201);
  });
});

describe("reading and listing", () => {
  it("reads a connection with the same representation as at creation, secrets masked", async () => {
    const { key } = await newMerchantWithKey(t.db);
    const attributes = createAttributes("provider-d", "h2h");
    const created = await createOk(key, attributes);
    const answer = await readCall(key, created.id);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual(created);
    expect(leaksIn(answer.text, [String(attributes.credentials.api_key), String(attributes.credentials.secret_key)])).toEqual([]);
  });

  it("lists only the merchant's connections of the key's mode, filtered by provider and mode", async () => {
    const { key, merchantId } = await newMerchantWithKey(t.db);
    const liveKey = (await createApiKey(t.db, { merchantId, name: "live", mode: "live" })).key;
    const other = await newMerchantWithKey(t.db, { mode: "live" });
    await createOk(other.key, createAttributes("provider-f", "h2h", "live"));
    const bTest = await createOk(key, createAttributes("provider-b", "h2h", "test"));
    const fLive = await createOk(liveKey, createAttributes("provider-f", "h2h", "live"));
    const fTest = await createOk(key, createAttributes("provider-f", "h2h", "test"));

    const ids = (answer: Answer) =>
      asList(answer)
        .map((r) => r.id)
        .sort();
    const all = await listCall(key);
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual([bTest.id, fTest.id].sort());
    expect(all.json.meta).toEqual({ count: 2 });
    expect(ids(await listCall(liveKey))).toEqual([fLive.id]);

    const fOnly = await listCall(key, "?filter%5Bprovider%5D=provider-f");
    expect(ids(fOnly)).toEqual([fTest.id]);
    const test = await listCall(key, "?filter[mode]=test");
    expect(ids(test)).toEqual([bTest.id, fTest.id].sort());
    const both = await listCall(key, "?filter[provider]=provider-b&filter[mode]=test");
    expect(ids(both)).toEqual([bTest.id]);
    expect(both.json.meta).toEqual({ count: 1 });
    const none = await listCall(liveKey, "?filter[provider]=provider-b&filter[mode]=live");
    expect(none.json).toEqual({ data: [], meta: { count: 0 } });
  });
});

describe("PATCH /api/connections/:id", () => {
  it("keeps an omitted secret, through this and later edits", async () => {
    const { key, merchantId } = await newMerchantWithKey(t.db);
    const attributes = createAttributes("provider-b", "h2h");
    const created = await createOk(key, attributes);
    const secret = String(attributes.credentials.secret_key);

    const edited = await patchCall(key, created.id, fullEdit(true, { credentials: { terminal_id: "TERM-NEW", currency: "EUR" } }));
    expect(edited.status).toBe(200);
    expect(edited.json.data.attributes.credentials).toEqual({ terminal_id: "TERM-NEW", currency: "EUR", secret_key: `••••${secret.slice(-4)}` });

    const label = unique("Renamed");
    const renamed = await patchCall(key, created.id, fullEdit(true, { label }));
    expect(renamed.status).toBe(200);
    expect(renamed.json.data.attributes).toMatchObject({
      label,
      enabled: true,
      credentials: { terminal_id: "TERM-NEW", secret_key: `••••${secret.slice(-4)}` },
    });
    expect(await storedCredentials(merchantId, created.id)).toEqual({ terminal_id: "TERM-NEW", currency: "EUR", secret_key: secret });
    expect(leaksIn(edited.text + renamed.text, [secret])).toEqual([]);
  });

  it("replaces a secret that is sent and answers with its new hint only", async () => {
    const { key, merchantId } = await newMerchantWithKey(t.db);
    const attributes = createAttributes("provider-c", "h2h");
    const created = await createOk(key, attributes);
    const next = randomBytes(18).toString("base64url");
    const answer = await patchCall(key, created.id, fullEdit(true, { credentials: { ...attributes.credentials, shop_password: next } }));
    expect(answer.status).toBe(200);
    expect(answer.json.data.attributes.credentials.shop_password).toBe(`••••${next.slice(-4)}`);
    expect((await storedCredentials(merchantId, created.id)).shop_password).toBe(next);
    expect(leaksIn(answer.text, [next])).toEqual([]);
  });

  it("accepts a PATCH that sends only the label (partial PATCH)", async () => {
    const { key, merchantId } = await newMerchantWithKey(t.db);
    const attributes = createAttributes("provider-b", "h2h");
    const created = await createOk(key, attributes);
    const label = unique("Only the label");
    const answer = await patchCall(key, created.id, { label });
    expect(answer.status === 200 ? answer.json.data.attributes.label : answer.json).toBe(label);
    expect((await storedCredentials(merchantId, created.id)).secret_key).toBe(attributes.credentials.secret_key);
  });

  it("refuses a label another connection of the merchant has, pointing at the label", async () => {
    const { key } = await newMerchantWithKey(t.db);
    const first = await createOk(key, createAttributes("provider-b", "h2h"));
    const second = await createOk(key, createAttributes("provider-c", "provider_account"));
    const answer = await patchCall(key, second.id, fullEdit(true, { label: first.attributes.label.toUpperCase() }));
    expect(answer.status).toBe(422);
    expect(answer.json.errors).toEqual([expect.objectContaining({ status: "422", code: "label_taken", source: { pointer: "/data/attributes/label" } })]);
    expect((await readCall(key, second.id)).json.data.attributes.label).toBe(second.attributes.label);
  });

  it("refuses changing the provider or the kind, and accepts them unchanged", async () => {
    const { key } = await newMerchantWithKey(t.db);
    const created = await createOk(key, createAttributes("provider-c", "h2h"));
    const provider = await patchCall(key, created.id, fullEdit(true, { provider: "provider-b" }));
    expect(provider.status).toBe(422);
    expect(pointers(provider)).toEqual(["/data/attributes/provider"]);
    expect(provider.json.errors[0]!).toMatchObject({ code: "immutable", detail: expect.stringContaining("create a new connection") });

    const kind = await patchCall(key, created.id, fullEdit(true, { kind: "provider_account", label: "" }));
    expect(pointers(kind)).toEqual(["/data/attributes/kind", "/data/attributes/label"]);

    const same = await patchCall(key, created.id, fullEdit(true, { provider: "provider-c", kind: "h2h", label: unique("Same provider") }));
    expect(same.status).toBe(200);
    expect((await readCall(key, created.id)).json.data.attributes.provider).toBe("provider-c");
  });

  it("refuses changing the mode: a test connection stays test, a live one live, and the same mode is accepted", async () => {
    const { key: testKey, merchantId } = await newMerchantWithKey(t.db);
    const liveKey = (await createApiKey(t.db, { merchantId, name: "live", mode: "live" })).key;
    for (const [from, to] of [
      ["test", "live"],
      ["live", "test"],
    ] as const) {
      const key = from === "test" ? testKey : liveKey;
      const created = await createOk(key, createAttributes("provider-b", "h2h", from));
      const answer = await patchCall(key, created.id, { mode: to, label: unique("Moved") });
      expect(answer.status).toBe(422);
      expect(answer.json.errors).toEqual([
        expect.objectContaining({
          code: "mode_fixed",
          source: { pointer: "/data/attributes/mode" },
          detail: `This connection was created in ${from} mode, and a connection's mode cannot change. To work in ${to} mode, add a new ${to} connection.`,
        }),
      ]);
      const row = await findConnectionRow(t.db, merchantId, created.id);
      expect([row?.mode, row?.label]).toEqual([from, created.attributes.label]);
      expect((await patchCall(key, created.id, { mode: from })).status).toBe(200);
    }
  });

  it("refuses moving an older Provider F connection to the other mode through its test_mode credential", async () => {
    const { key, merchantId } = await newMerchantWithKey(t.db);
    const attributes = createAttributes("provider-f", "h2h", "test");
    const created = await createOk(key, { ...attributes, credentials: { ...attributes.credentials, test_mode: true } });
    const prod = sampleCredentials("provider-f", "h2h", "live");
    const answer = await patchCall(key, created.id, { credentials: { test_mode: false, public_key: prod.public_key, secret_key: prod.secret_key } });
    expect(answer.status).toBe(422);
    expect(answer.json.errors.map((e) => [e.code, e.source?.pointer])).toEqual([["mode_fixed", "/data/attributes/credentials/test_mode"]]);
    expect((await findConnectionRow(t.db, merchantId, created.id))?.mode).toBe("test");
  });

  it("disables and keeps a disabled connection disabled on edits", async () => {
    const { key } = await newMerchantWithKey(t.db);
    const created = await createOk(key, createAttributes("provider-b", "h2h"));
    const off = await patchCall(key, created.id, fullEdit(false, {}));
    expect(off.json.data.attributes.enabled).toBe(false);
    const edited = await patchCall(key, created.id, fullEdit(false, { label: unique("Still off") }));
    expect(edited.json.data.attributes.enabled).toBe(false);
    const listed = await listCall(key, "?filter[state]=disabled");
    expect(asList(listed).map((r) => r.id)).toEqual([created.id]);
  });
});

describe("DELETE /api/connections/:id", () => {
  it("answers 204, then the connection is gone", async () => {
    const { key } = await newMerchantWithKey(t.db);
    const created = await createOk(key, createAttributes("provider-b", "h2h"));
    const deleted = await deleteCall(key, created.id);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const read = await readCall(key, created.id);
    expect(read.status).toBe(404);
    expect(read.json.errors).toEqual([expect.objectContaining({ status: "404", code: "not_found" })]);
    expect((await deleteCall(key, created.id)).status).toBe(404);
    expect((await patchCall(key, created.id, fullEdit(true, { label: "Back" }))).status).toBe(404);
    expect((await listCall(key)).json.data).toEqual([]);
  });
});

describe("merchant isolation", () => {
  it("answers 404 to another merchant's GET, PATCH and DELETE and changes nothing", async () => {
    const owner = await newMerchantWithKey(t.db);
    const stranger = await newMerchantWithKey(t.db);
    const created = await createOk(owner.key, createAttributes("provider-b", "h2h"));

    const read = await readCall(stranger.key, created.id);
    const patched = await patchCall(stranger.key, created.id, fullEdit(false, { label: "Hijacked" }));
    const deleted = await deleteCall(stranger.key, created.id);
    for (const answer of [read, patched, deleted]) {
      expect(answer.status).toBe(404);
      expect(answer.json.errors[0]!.code).toBe("not_found");
      expect(answer.text).not.toContain(created.attributes.label);
    }
    expect((await listCall(stranger.key)).json.data).toEqual([]);
    expect((await readCall(owner.key, created.id)).json.data).toEqual(created);
  });
});

describe("authentication", () => {
  it("answers 401 without a key, with a malformed header, with an unknown key and with a revoked key", async () => {
    const { key, merchantId, keyId } = await newMerchantWithKey(t.db);
    const created = await createOk(key, createAttributes("provider-b", "h2h"));

    const none = await listCall(null);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect(none.json.errors[0]!.code).toBe("unauthorized");

    const basic = await send(GET, {}, { headers: { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` } });
    expect(basic.status).toBe(401);

    const unknown = await readCall(`pok_${randomBytes(32).toString("base64url")}`, created.id);
    expect(unknown.status).toBe(401);
    expect(unknown.json.errors[0]!.code).toBe("invalid_api_key");
    expect(unknown.text).not.toContain(created.attributes.label);

    const noKeyCreate = await send(POST, {}, { method: "POST", body: envelope(createAttributes("provider-b", "h2h")) });
    expect(noKeyCreate.status).toBe(401);
    const noKeyDelete = await send(DELETE, { id: created.id }, { method: "DELETE", path: `/api/connections/${created.id}` });
    expect(noKeyDelete.status).toBe(401);

    expect(await revokeApiKey(t.db, merchantId, keyId)).toBe(true);
    expect((await listCall(key)).status).toBe(401);
    expect((await listCall(key)).json.errors[0]!.code).toBe("invalid_api_key");
  });
});

describe("bad input", () => {
  let key: string;
  beforeAll(async () => {
    ({ key } = await newMerchantWithKey(t.db));
  });

  const fCredentials = () => sampleCredentials("provider-f", "h2h", "test");
  const dCredentials = () => sampleCredentials("provider-d", "h2h", "test");

  const cases: { name: string; attributes: () => Record<string, unknown>; pointers: string[] }[] = [
    {
      name: "unknown provider",
      attributes: () => ({ ...createAttributes("provider-b", "h2h"), provider: "provider-z" }),
      pointers: ["/data/attributes/provider"],
    },
    {
      name: "kind the provider does not offer",
      attributes: () => ({ ...createAttributes("provider-b", "h2h"), kind: "provider_account" }),
      pointers: ["/data/attributes/kind"],
    },
    {
      name: "unknown mode and a label too long",
      attributes: () => ({ ...createAttributes("provider-b", "h2h"), mode: "sandbox", label: "x".repeat(81) }),
      pointers: ["/data/attributes/label", "/data/attributes/mode"],
    },
    {
      name: "credentials that are not an object",
      attributes: () => ({ ...createAttributes("provider-b", "h2h"), credentials: "secret" }),
      pointers: ["/data/attributes/credentials"],
    },
    {
      name: "Provider D without API URL and with a bad merchant category code",
      attributes: () => {
        const { api_url: _u, ...rest } = dCredentials();
        return createAttributes("provider-d", "h2h", "test", { credentials: { ...rest, merchant_category_code: "54" } });
      },
      pointers: ["/data/attributes/credentials/api_url", "/data/attributes/credentials/merchant_category_code"],
    },
    {
      name: "Provider F prod keys with test mode on",
      attributes: () => createAttributes("provider-f", "h2h", "test", { credentials: { ...sampleCredentials("provider-f", "h2h", "live"), test_mode: true } }),
      pointers: ["/data/attributes/credentials/public_key", "/data/attributes/credentials/secret_key"],
    },
    {
      name: "a private key as Provider A's payment key",
      attributes: () => {
        const credentials = sampleCredentials("provider-a", "h2h", "test");
        return createAttributes("provider-a", "h2h", "test", { credentials: { ...credentials, payment_key: credentials.private_key } });
      },
      pointers: ["/data/attributes/credentials/payment_key"],
    },
    {
      name: "Provider E with a public key node:crypto cannot read",
      attributes: () => {
        const credentials = sampleCredentials("provider-e", "h2h", "test");
        // Well-formed PEM that node:crypto cannot read: refused at save, not at the first payment.
        return createAttributes("provider-e", "h2h", "test", {
          credentials: { ...credentials, public_key: "-----BEGIN PUBLIC KEY-----\nQUFBQUFBQUFBQUFBQUFBQQ==\n-----END PUBLIC KEY-----" },
        });
      },
      pointers: ["/data/attributes/credentials/public_key"],
    },
    {
      name: "Provider E with a public key that is not its private key's pair",
      attributes: () =>
        createAttributes("provider-e", "h2h", "test", {
          credentials: { ...sampleCredentials("provider-e", "h2h", "test"), public_key: generateKeyPair().publicKeyPem },
        }),
      pointers: ["/data/attributes/credentials/public_key"],
    },
    {
      name: "constants on a provider that has none",
      attributes: () => ({ ...createAttributes("provider-c", "provider_account"), constants: { COUNTRY: "GB" } }),
      pointers: ["/data/attributes/constants"],
    },
    {
      name: "a Provider B constant in the wrong format",
      attributes: () => ({ ...createAttributes("provider-b", "h2h"), constants: { EMAIL: "not-an-email" } }),
      pointers: ["/data/attributes/constants/EMAIL"],
    },
  ];

  it.each(cases)("answers 422 for $name, one pointer per bad field", async ({ attributes, pointers: expected }) => {
    const answer = await createCall(key, attributes());
    expect(answer.status).toBe(422);
    expect(pointers(answer)).toEqual([...expected].sort());
    for (const error of answer.json.errors) {
      expect(error.status).toBe("422");
      expect(error.detail.length).toBeGreaterThan(0);
    }
    expect((await listCall(key)).json.data).toEqual([]);
  });

  it("reports a missing label, a bad Provider F public key and an unknown credential field at once", async () => {
    const { label: _l, ...attributes } = createAttributes("provider-f", "h2h", "test", {
      credentials: { ...fCredentials(), public_key: "dev_pub_not-a-uuid", webhook_secret: "x" },
    });
    const answer = await createCall(key, attributes);
    expect(answer.status).toBe(422);
    expect(answer.json.errors).toHaveLength(3);
    expect(pointers(answer)).toEqual(
      ["/data/attributes/label", "/data/attributes/credentials/public_key", "/data/attributes/credentials/webhook_secret"].sort(),
    );
    const byPointer = Object.fromEntries(answer.json.errors.map((e) => [e.source?.pointer, e.detail]));
    expect(byPointer["/data/attributes/label"]).toBe("Label is required");
    expect(byPointer["/data/attributes/credentials/public_key"]).toContain("dev_pub_ or prod_pub_");
  });

  it("reports a blank label, a bad Provider F public key and an unsupported currency at once", async () => {
    const attributes = createAttributes("provider-f", "h2h", "test", {
      label: "   ",
      credentials: { ...fCredentials(), public_key: "dev_pub_not-a-uuid", currency: "USD" },
    });
    const answer = await createCall(key, attributes);
    expect(answer.status).toBe(422);
    expect(pointers(answer)).toEqual(["/data/attributes/label", "/data/attributes/credentials/public_key", "/data/attributes/credentials/currency"].sort());
    const byPointer = Object.fromEntries(answer.json.errors.map((e) => [e.source?.pointer, e.detail]));
    expect(byPointer["/data/attributes/credentials/currency"]).toBe("Currency must be one of: EUR");
  });

  it("points at each unknown credential field", async () => {
    const attributes = createAttributes("provider-b", "h2h", "test", {
      credentials: { ...sampleCredentials("provider-b", "h2h", "test"), webhook_secret: "x", callback_url: "https://x.example" },
    });
    const answer = await createCall(key, attributes);
    expect(answer.status).toBe(422);
    expect(pointers(answer)).toEqual(["/data/attributes/credentials/callback_url", "/data/attributes/credentials/webhook_secret"]);
  });

  it("answers 422 at /data/type for the wrong type, and at /data for a body without data", async () => {
    const wrongType = await send(POST, {}, { method: "POST", key, body: envelope(createAttributes("provider-b", "h2h"), "payment-invoice") });
    expect(wrongType.status).toBe(422);
    expect(pointers(wrongType)).toEqual(["/data/type"]);
    expect(wrongType.json.errors[0]!.detail).toBe('data.type must be "connection"');

    const noData = await send(POST, {}, { method: "POST", key, body: { attributes: {} } });
    expect(noData.status).toBe(422);
    expect(pointers(noData)).toEqual(["/data"]);

    const badAttributes = await send(POST, {}, { method: "POST", key, body: { data: { type: "connection", attributes: [] } } });
    expect(pointers(badAttributes)).toEqual(["/data/attributes"]);
  });

  it("answers 400 to malformed JSON, naming where it broke", async () => {
    const answer = await send(POST, {}, { method: "POST", key, rawBody: '{"data": {"type": "connection",, }' });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0]!).toMatchObject({ status: "400", code: "malformed_json", detail: expect.stringContaining("line 1") });
    const empty = await send(PATCH, { id: "conn_x" }, { method: "PATCH", key, path: "/api/connections/conn_x", rawBody: "" });
    expect(empty.status).toBe(404);
  });

  it("answers 415 to a body that is not JSON", async () => {
    const answer = await send(
      POST,
      {},
      {
        method: "POST",
        key,
        rawBody: JSON.stringify(envelope(createAttributes("provider-b", "h2h"))),
        contentType: "text/plain",
      },
    );
    expect(answer.status).toBe(415);
    expect(answer.json.errors[0]!.code).toBe("unsupported_media_type");
    expect((await listCall(key)).json.data).toEqual([]);
  });

  it("answers 413 to a body over 64 KiB, with or without a length", async () => {
    const attributes = { ...createAttributes("provider-b", "h2h"), padding: "x".repeat(64 * 1024) };
    const answer = await createCall(key, attributes);
    expect(answer.status).toBe(413);
    expect(answer.json.errors[0]!.code).toBe("payload_too_large");

    const bytes = new TextEncoder().encode(JSON.stringify(envelope(attributes)));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
        controller.close();
      },
    });
    const streamed = await send(POST, {}, { method: "POST", key, rawBody: stream });
    expect(streamed.status).toBe(413);

    // Just under the limit is read (and then judged on its content).
    const fits = { ...createAttributes("provider-b", "h2h"), padding: "" };
    const size = new TextEncoder().encode(JSON.stringify(envelope(fits))).length;
    fits.padding = "x".repeat(65_536 - size);
    const accepted = await createCall(key, fits);
    expect(accepted.status).toBe(201);
  });
});

describe("request ids", () => {
  it("echoes a well-formed X-Request-Id, in the header and the error meta, and replaces a forged one", async () => {
    const { key } = await newMerchantWithKey(t.db);
    const id = `client-${randomBytes(6).toString("hex")}`;
    const created = await send(POST, {}, { method: "POST", key, body: envelope(createAttributes("provider-b", "h2h")), headers: { "x-request-id": id } });
    expect(created.status).toBe(201);
    expect(created.headers.get("x-request-id")).toBe(id);

    const refused = await send(GET_ONE, { id: "conn_missing" }, { key, path: "/api/connections/conn_missing", headers: { "x-request-id": id } });
    expect(refused.status).toBe(404);
    expect(refused.headers.get("x-request-id")).toBe(id);
    expect(refused.json.meta.request_id).toBe(id);

    const unauthorized = await send(GET, {}, { headers: { "x-request-id": id } });
    expect(unauthorized.headers.get("x-request-id")).toBe(id);

    const forged = await send(GET, {}, { key, headers: { "x-request-id": `forged id "with" spaces ${"x".repeat(200)}` } });
    expect(forged.headers.get("x-request-id")).toMatch(/^req_[A-Za-z0-9_-]{22}$/);

    const a = await listCall(key);
    const b = await listCall(key);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});

describe("GET /api/providers", () => {
  it("describes every provider of the registry and its fields as plain JSON, without schema internals", async () => {
    const answer = await send(GET_PROVIDERS, {}, { path: "/api/providers" });
    expect(answer.status).toBe(200);
    // JSON:API resources: type "provider", the slug as id, the description as attributes.
    const resources = answer.json.data as unknown as { type: string; id: string; attributes: Record<string, unknown> }[];
    expect(resources.every((resource) => resource.type === "provider")).toBe(true);
    const providers = resources.map(({ id, attributes }) => ({ slug: id, ...attributes })) as unknown as {
      slug: string;
      kinds: { kind: string; fields: Record<string, unknown>[] }[];
    }[];
    expect(providers.map((p) => p.slug)).toEqual(PROVIDERS.map((p) => p.slug));
    for (const provider of providers) {
      expect(provider.kinds.length).toBeGreaterThan(0);
      for (const kind of provider.kinds) {
        expect(kind.fields.length).toBeGreaterThan(0);
        for (const field of kind.fields) {
          expect(field).toEqual(
            expect.objectContaining({
              id: expect.any(String),
              label: expect.any(String),
              input: expect.any(String),
              required: expect.any(Boolean),
              secret: expect.any(Boolean),
            }),
          );
        }
      }
    }
    const secretIds = (slug: string, kind: string) =>
      providers
        .find((p) => p.slug === slug)!
        .kinds.find((k) => k.kind === kind)!
        .fields.filter((f) => f.secret)
        .map((f) => f.id);
    expect(secretIds("provider-f", "h2h")).toEqual(["secret_key"]);
    expect(secretIds("provider-d", "h2h")).toEqual(["api_key", "secret_key"]);

    const forbiddenKeys: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
      else if (value && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) {
          if (k === "_zod" || k === "def" || k === "schema" || k === "refine") forbiddenKeys.push(`${path}.${k}`);
          walk(v, `${path}.${k}`);
        }
      }
    };
    walk(answer.json, "");
    expect(forbiddenKeys).toEqual([]);
    // Nothing was lost to serialisation: no functions, regular expressions or undefined values.
    expect(providers).toStrictEqual(describeRegistry().providers);
  });
});

describe("attributes the spec lets a client leave out", () => {
  it("creates a connection without constants", async () => {
    const { key } = await newMerchantWithKey(t.db);
    const { constants: _c, ...attributes } = createAttributes("provider-b", "h2h");
    const answer = await createCall(key, attributes);
    expect(answer.status === 201 ? answer.json.data.attributes.constants : answer.json).toEqual({});
  });

  it("creates Provider F without a mode, taking it from a legacy test_mode", async () => {
    const { key } = await newMerchantWithKey(t.db, { mode: "live" });
    const { constants: _c, mode: _m, ...attributes } = createAttributes("provider-f", "h2h", "live");
    const answer = await createCall(key, { ...attributes, credentials: { ...attributes.credentials, test_mode: false }, constants: {} });
    expect(answer.status === 201 ? answer.json.data.attributes.mode : answer.json).toBe("live");
  });
});

describe("input PostgreSQL cannot store is a field error, never a 500", () => {
  it("refuses a NUL in a label and an unpaired surrogate in a credential with pointers; odd ids and filters find nothing", async () => {
    const m = await invoiceMerchant(t.db);
    const headers = { authorization: `Bearer ${m.key}`, "content-type": "application/json" };
    const body = JSON.stringify({
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: "a\u0000b",
          mode: "test",
          credentials: { terminal_id: "\ud800", secret_key: "s", currency: "EUR" },
        },
      },
    });
    const created = await POST(new Request("http://test/api/connections", { method: "POST", headers, body }), { params: Promise.resolve({}) });
    expect(created.status).toBe(422);
    const errors = (await created.json()).errors;
    expect(errors[0]).toMatchObject({ code: "invalid_character", source: { pointer: "/data/attributes/label" } });

    expect((await GET_ONE(new Request("http://test/api/connections/x", { headers }), { params: Promise.resolve({ id: "conn_\u0000" }) })).status).toBe(404);
    const filtered = await GET(new Request("http://test/api/connections?filter[provider]=%00", { headers }), { params: Promise.resolve({}) });
    expect(filtered.status).toBe(200);
    expect((await filtered.json()).data).toEqual([]);
    const patch = await PATCH(new Request("http://test/api/connections/conn_x", { method: "PATCH", headers, body: "{}" }), {
      params: Promise.resolve({ id: "conn_\u0000" }),
    });
    expect(patch.status).toBe(404);
  });
});
