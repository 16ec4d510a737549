import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
/**
 * A rebinding name server: while `answers` holds addresses, each lookup of `host` takes the next
 * one (the check before sending, then the socket's own lookup); everything else resolves as usual.
 */
const rebinding = vi.hoisted(() => ({ host: "", answers: [] as string[], asked: 0 }));
vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const lookup = ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const done = typeof options === "function" ? (options as typeof callback) : callback;
    if (hostname !== rebinding.host || rebinding.answers.length === 0) return (real.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    rebinding.asked += 1;
    const address = rebinding.answers.shift()!;
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all;
    queueMicrotask(() => (all ? done(null, [{ address, family: 4 }]) : done(null, address, 4)));
  }) as typeof real.lookup;
  return { ...real, default: { ...real, lookup }, lookup };
});

import { POST } from "@/app/api/connections/route";
import { PATCH } from "@/app/api/connections/[id]/route";
import { createConnectionAction, updateConnectionAction } from "@/lib/actions/connections";
import { createApiKey } from "@/lib/api-keys/queries";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { findConnectionRow } from "@/lib/connections/queries";
import { revealCredentials } from "@/lib/connections/store";
import { credentialsKey } from "@/lib/vault/vault-key";
import { connections } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { listAttempts } from "@/lib/processing/attempts";
import { payWithCard } from "@/lib/processing/engine";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { setUpTestDb, unique } from "./helpers/db";
import { newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

/**
 * Provider D's api_url receives the connection's API key and signed
 * requests, so in live mode it may not point into the operator's network (the webhook URL check's
 * ranges), neither as an address nor as a name resolving there, when saved and again before each
 * request; test mode keeps calling the sandbox. Changing it on a saved connection takes the
 * secrets again. Through the dashboard's server actions and the connections API.
 */
const t = setUpTestDb();
let m: TeamMerchant;
/** The connections these tests send through the API are live: a live key manages them. */
let liveKey: string;

beforeAll(async () => {
  m = await teamMerchant(t.db);
  liveKey = (await createApiKey(t.db, { merchantId: m.merchantId, name: "live", mode: "live" })).key;
});
beforeEach(() => {
  session.userId = m.ownerId;
});

/** A public address written as such: the check needs no DNS for it. */
const PUBLIC_URL = "https://93.184.216.34/v1";

function dAttributes(mode: "test" | "live", apiUrl: string, label = unique("D")) {
  const credentials = { ...sampleCredentials("provider-d", "h2h", mode), api_url: apiUrl, merchant_id: unique("D") };
  return { provider: "provider-d", kind: "h2h", label, mode, credentials, constants: {} };
}

const API_URL_ERROR = "credentials.api_url";

async function disableLiveD(): Promise<void> {
  // One enabled D connection per currency and mode: earlier tests' live ones step aside.
  await t.db.update(connections).set({ enabled: false, exclusiveKey: null }).where(eq(connections.merchantId, m.merchantId));
}

describe("live api_url: never inside the operator's network", () => {
  it.each([
    ["loopback", "https://127.0.0.1/v1"],
    ["a name resolving to loopback", "https://localhost/v1"],
    ["private 10/8", "https://10.1.2.3/v1"],
    ["private 192.168/16", "https://192.168.0.10:8443/v1"],
    ["link-local (cloud metadata)", "https://169.254.169.254/latest"],
    ["CGNAT", "https://100.64.0.1/v1"],
    ["IPv6 loopback", "https://[::1]/v1"],
    ["IPv6 unique-local", "https://[fd12:3456::1]/v1"],
    ["IPv6 link-local", "https://[fe80::1]/v1"],
    ["IPv4-mapped IPv6 of a private address", "https://[::ffff:10.0.0.1]/v1"],
    ["IPv4-mapped IPv6 of the metadata address", "https://[::ffff:169.254.169.254]/v1"],
  ])("the create action refuses %s (%s) on the API URL field", async (_what, url) => {
    await disableLiveD();
    const refused = await createConnectionAction(dAttributes("live", url));
    expect(refused.ok).toBe(false);
    const fieldErrors = refused.ok ? {} : refused.fieldErrors;
    expect(Object.keys(fieldErrors)).toEqual([API_URL_ERROR]);
    expect(fieldErrors[API_URL_ERROR]).toMatch(/^API URL points to .*a private, loopback, link-local or reserved address/);
  });

  it("accepts a public address in live mode, and any address in test mode (its requests go to the sandbox)", async () => {
    await disableLiveD();
    expect(await createConnectionAction(dAttributes("live", PUBLIC_URL))).toMatchObject({ ok: true });
    expect(await createConnectionAction(dAttributes("test", "https://127.0.0.1/v1"))).toMatchObject({ ok: true });
  });

  it("the connections API refuses it with a JSON:API error at /data/attributes/credentials/api_url", async () => {
    await disableLiveD();
    const response = await POST(
      new Request("http://test/api/connections", {
        method: "POST",
        headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/vnd.api+json" },
        body: JSON.stringify({ data: { type: "connection", attributes: dAttributes("live", "https://[::ffff:127.0.0.1]/v1") } }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(422);
    const errors = ((await response.json()) as { errors: { code: string; source: { pointer: string }; detail: string }[] }).errors;
    expect(errors.map((e) => [e.source.pointer, e.code])).toEqual([["/data/attributes/credentials/api_url", "invalid_url"]]);
    expect(errors[0]!.detail).toContain("::ffff:7f00:1");
  });

  it("switching a test connection with a private api_url to live is refused (the mode is fixed)", async () => {
    await disableLiveD();
    const created = await createConnectionAction(dAttributes("test", "https://10.0.0.9/v1"));
    const id = created.ok ? created.data.id : "";
    const refused = await updateConnectionAction({ id, mode: "live" });
    expect(refused).toMatchObject({ ok: false, fieldErrors: { mode: expect.stringContaining("mode cannot change") } });
    expect((await findConnectionRow(t.db, m.merchantId, id))!.mode).toBe("test");
  });
});

describe("changing the api_url of a saved connection takes the secrets again", () => {
  it("the edit action refuses a new API URL without the API key and secret key, naming both; with them it saves", async () => {
    await disableLiveD();
    const created = await createConnectionAction(dAttributes("live", PUBLIC_URL));
    const id = created.ok ? created.data.id : "";
    const refused = await updateConnectionAction({ id, credentials: { api_url: "https://93.184.216.35/v2", api_key: "", secret_key: "" } });
    expect(refused.ok).toBe(false);
    const fieldErrors = refused.ok ? {} : refused.fieldErrors;
    expect(Object.keys(fieldErrors).sort()).toEqual(["credentials.api_key", "credentials.secret_key"]);
    expect(fieldErrors["credentials.api_key"]).toBe(
      "Enter the API key again: the API URL changed, and the stored secrets are never sent to a new address without being re-entered.",
    );
    expect(fieldErrors["credentials.secret_key"]).toContain("Enter the Secret key again");
    const row = await findConnectionRow(t.db, m.merchantId, id);
    expect(row!.publicCredentials.api_url).toBe(PUBLIC_URL);

    // Only one secret given: the other one is still named.
    const half = await updateConnectionAction({ id, credentials: { api_url: "https://93.184.216.35/v2", api_key: "new-api-key-123456" } });
    expect(half.ok ? {} : half.fieldErrors).toEqual({ "credentials.secret_key": expect.any(String) });

    const saved = await updateConnectionAction({
      id,
      credentials: { api_url: "https://93.184.216.35/v2", api_key: "new-api-key-123456", secret_key: "new-secret-key-123456" },
    });
    expect(saved).toMatchObject({ ok: true });
    const stored = revealCredentials((await findConnectionRow(t.db, m.merchantId, id))!, credentialsKey());
    expect([stored.api_url, stored.api_key, stored.secret_key]).toEqual(["https://93.184.216.35/v2", "new-api-key-123456", "new-secret-key-123456"]);
  });

  it("other edits keep the stored secrets as before, and PATCH /api/connections/:id applies the same rule", async () => {
    await disableLiveD();
    const created = await createConnectionAction(dAttributes("live", PUBLIC_URL));
    const id = created.ok ? created.data.id : "";
    expect(await updateConnectionAction({ id, label: unique("Renamed D"), credentials: { api_url: PUBLIC_URL, api_key: "" } })).toMatchObject({ ok: true });
    const response = await PATCH(
      new Request(`http://test/api/connections/${id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/vnd.api+json" },
        body: JSON.stringify({
          data: {
            type: "connection",
            attributes: { label: null, mode: null, enabled: true, constants: null, credentials: { api_url: "https://93.184.216.36/v1" } },
          },
        }),
      }),
      { params: Promise.resolve({ id }) },
    );
    expect(response.status).toBe(422);
    const errors = ((await response.json()) as { errors: { source: { pointer: string } }[] }).errors;
    expect(errors.map((e) => e.source.pointer).sort()).toEqual(["/data/attributes/credentials/api_key", "/data/attributes/credentials/secret_key"]);
  });
});

describe("before each live request", () => {
  let listener: Server;
  let port = 0;
  let connectionsSeen = 0;

  beforeAll(async () => {
    listener = createServer((socket) => {
      connectionsSeen += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it.each([
    ["an address", () => `https://127.0.0.1:${port}/v1`, "127.0.0.1"],
    ["a name that now resolves to loopback", () => `https://localhost:${port}/v1`, "localhost ("],
  ])("a stored api_url that is (now) %s is refused before anything is sent: a soft failure, and nothing reached it", async (_what, url, shown) => {
    await disableLiveD();
    const created = await createConnectionAction(dAttributes("live", PUBLIC_URL));
    const id = created.ok ? created.data.id : "";
    // As a row saved before this rule, or a name whose DNS answer changed since it was saved.
    const row = (await findConnectionRow(t.db, m.merchantId, id))!;
    await t.db
      .update(connections)
      .set({ publicCredentials: { ...row.publicCredentials, api_url: url() } })
      .where(eq(connections.id, id));

    const body = templateEnvelope(findTemplate("d-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.test_mode = false;
    const invoice = await createInvoice(t.db, m.merchant, "payment", body);
    if (invoice.kind !== "created") throw new Error(`setup: ${JSON.stringify(invoice)}`);
    const result = await payWithCard(t.db, invoice.invoice.id, { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, holder: "Test Holder" });
    expect(result).toMatchObject({ invoice: { status: "process_failed", resolution: "provider_unavailable" } });
    const [attempt] = await listAttempts(t.db, invoice.invoice.id);
    expect(attempt).toMatchObject({ connectionId: id, status: "soft_failed", resolution: "provider_unavailable" });
    const log = JSON.stringify(attempt!.exchanges);
    expect(log).toContain("not sent: API URL points to");
    expect(log).toContain(shown);
    expect(connectionsSeen).toBe(0);
  });

  it("a name that answers a public address to the check and loopback to the connection is refused as the socket connects", async () => {
    await disableLiveD();
    const created = await createConnectionAction(dAttributes("live", PUBLIC_URL));
    const id = created.ok ? created.data.id : "";
    const row = (await findConnectionRow(t.db, m.merchantId, id))!;
    await t.db
      .update(connections)
      .set({ publicCredentials: { ...row.publicCredentials, api_url: `https://localhost:${port}/v1` } })
      .where(eq(connections.id, id));
    const body = templateEnvelope(findTemplate("d-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.test_mode = false;
    const invoice = await createInvoice(t.db, m.merchant, "payment", body);
    if (invoice.kind !== "created") throw new Error(`setup: ${JSON.stringify(invoice)}`);

    Object.assign(rebinding, { host: "localhost", answers: ["93.184.216.34", "127.0.0.1"], asked: 0 });
    const result = await payWithCard(t.db, invoice.invoice.id, { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, holder: "Test Holder" });
    const asked = rebinding.asked;
    Object.assign(rebinding, { host: "", answers: [] });

    expect(asked).toBe(2);
    expect(result).toMatchObject({ invoice: { status: "process_failed", resolution: "provider_unavailable" } });
    const [attempt] = await listAttempts(t.db, invoice.invoice.id);
    expect(attempt).toMatchObject({ connectionId: id, status: "soft_failed", resolution: "provider_unavailable" });
    const log = JSON.stringify(attempt!.exchanges);
    expect(log).toContain("not sent: localhost resolved to 127.0.0.1, a private, loopback, link-local or reserved address");
    expect(connectionsSeen).toBe(0);
  });
});
