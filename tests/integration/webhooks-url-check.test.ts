import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { createWebhookEndpointAction, sendTestWebhookAction, updateWebhookEndpointAction } from "@/lib/actions/webhooks";
import { webhookEndpoints } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { changeInvoiceStatus } from "@/lib/invoices/status";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { listInvoiceEvents } from "@/lib/webhooks/read";
import { allowPrivateWebhookUrls, guardedLookup, webhookUrlRules } from "@/lib/http/url-check";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant } from "./helpers/invoice-fixtures";
import { clearQueuedJobs, runJobs } from "./helpers/jobs";

/**
 * The webhook endpoint URL check when an endpoint is added or edited, and again at send. In production (NODE_ENV) only https,
 * and no private, loopback, link-local, unique-local or otherwise internal address, whether
 * written as an address or reached through a name, unless the operator sets
 * WEBHOOKS_ALLOW_PRIVATE_URLS=1 (which tests and a developer's machine rely on).
 */
const t = setUpTestDb();

let hits = 0;
const server = createServer((_request, response) => {
  hits += 1;
  response.writeHead(200).end("ok");
});
let receiverUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  hits = 0;
  // No delivery retry left queued by an earlier test may reach this test's receiver.
  await clearQueuedJobs(t.db, "webhook-deliver");
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function production(allowPrivate?: "0" | "1") {
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", allowPrivate ?? "");
}

/** The Webhooks page's Add endpoint, for every event type, as the URL check sees it. */
const addEndpoint = ({ url }: { url: string }) => createWebhookEndpointAction({ url, description: "", enabled: true, allEvents: true, eventTypes: [] });

async function owner() {
  const m = await teamMerchant(t.db);
  session.userId = m.ownerId;
  return m;
}

describe("the operator setting", () => {
  it("allows private receivers by default outside production only; 0 and 1 decide explicitly", () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", "");
    vi.stubEnv("NODE_ENV", "development");
    expect(allowPrivateWebhookUrls()).toBe(true);
    vi.stubEnv("NODE_ENV", "production");
    expect(allowPrivateWebhookUrls()).toBe(false);
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", "1");
    expect(allowPrivateWebhookUrls()).toBe(true);
    vi.stubEnv("NODE_ENV", "development");
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", "0");
    expect(allowPrivateWebhookUrls()).toBe(false);
  });
});

describe("what the Webhooks page and /docs/webhooks say is accepted (webhookUrlRules) is what the check does, in each environment", () => {
  it.each([
    [
      "production",
      "",
      /^This server accepts https:\/\/ URLs on the public internet only: plain http:\/\/ and private, loopback or link-local addresses are refused\.$/,
      false,
    ],
    [
      "production",
      "1",
      /^This server accepts https:\/\/ URLs, private and loopback addresses included \(WEBHOOKS_ALLOW_PRIVATE_URLS=1\); plain http:\/\/ only to a loopback address/,
      true,
    ],
    [
      "development",
      "",
      /^This server is not running in production, so it accepts http:\/\/ and https:\/\/ URLs, private and loopback addresses included/,
      true,
    ],
    [
      "development",
      "0",
      /^This server accepts http:\/\/ and https:\/\/ URLs on the public internet; private, loopback and link-local addresses are refused/,
      false,
    ],
  ] as const)(
    "NODE_ENV=%s WEBHOOKS_ALLOW_PRIVATE_URLS=%j: the words, and a receiver at http://127.0.0.1 %s",
    async (env, allow, words, loopbackHttpAccepted) => {
      vi.stubEnv("NODE_ENV", env);
      vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", allow);
      expect(webhookUrlRules()).toMatch(words);
      await owner();
      expect(await addEndpoint({ url: receiverUrl })).toMatchObject({ ok: loopbackHttpAccepted });
    },
  );
});

describe("at save, in production", () => {
  it.each([
    ["https://127.0.0.1/hooks", "127.0.0.1"],
    ["https://127.8.9.10/hooks", "127.8.9.10"],
    ["https://10.1.2.3/hooks", "10.1.2.3"],
    ["https://172.16.0.1/hooks", "172.16.0.1"],
    ["https://192.168.1.1/hooks", "192.168.1.1"],
    ["https://169.254.169.254/latest/meta-data", "169.254.169.254"],
    ["https://100.64.0.1/hooks", "100.64.0.1"],
    ["https://0.0.0.0/hooks", "0.0.0.0"],
    ["https://224.0.0.1/hooks", "224.0.0.1"],
    ["https://[::1]/hooks", "::1"],
    ["https://[::]/hooks", "::"],
    ["https://[fc00::1]/hooks", "fc00::1"],
    ["https://[fd12:3456::1]/hooks", "fd12:3456::1"],
    ["https://[fe80::1]/hooks", "fe80::1"],
    ["https://[::ffff:127.0.0.1]/hooks", "::ffff:7f00:1"],
    ["https://[::ffff:10.0.0.1]/hooks", "::ffff:a00:1"],
    ["https://[64:ff9b::a00:1]/hooks", "64:ff9b::a00:1"],
    ["https://[::ffff:0:7f00:1]/hooks", "::ffff:0:7f00:1"],
    ["https://2130706433/hooks", "127.0.0.1"],
    ["https://0x7f.1/hooks", "127.0.0.1"],
    ["https://localhost:8443/hooks", "localhost"],
  ])("refuses %s, naming the URL field and the address", async (url, address) => {
    production();
    await owner();
    const result = await addEndpoint({ url });
    expect(result).toMatchObject({ ok: false, fieldErrors: { url: expect.stringContaining("private, loopback, link-local or reserved address") } });
    if (result.ok) throw new Error("expected a refusal");
    expect(result.fieldErrors.url).toContain(address);
  });

  it("accepts public IPv4 and IPv6 addresses, at save and in the connection's own lookup", async () => {
    production();
    await owner();
    for (const url of ["https://93.184.215.14/hooks", "https://8.8.8.8:8443/hooks", "https://[2606:4700:4700::1111]/hooks"]) {
      expect(await addEndpoint({ url })).toMatchObject({ ok: true, data: { url } });
    }
    for (const address of ["93.184.215.14", "2606:4700:4700::1111"]) {
      const resolved = await new Promise<unknown>((resolve, reject) =>
        guardedLookup(address, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
      );
      expect(resolved).toEqual([{ address, family: address.includes(":") ? 6 : 4 }]);
    }
  });

  it("refuses plain http (even to a private address the operator allows, or a name for loopback), and a host that does not resolve", async () => {
    production("1");
    const m = await owner();
    for (const url of ["http://shop.example.com/hooks", "http://10.0.0.5/hooks", "http://localhost:9/hooks"]) {
      expect(await addEndpoint({ url })).toMatchObject({
        ok: false,
        fieldErrors: { url: "Endpoint URL must use https:// (plain http is refused in production)." },
      });
    }
    expect(await addEndpoint({ url: "https://does-not-exist.invalid/hooks" })).toMatchObject({
      ok: false,
      fieldErrors: { url: expect.stringContaining("could not be resolved") },
    });
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, m.merchantId))).toEqual([]);
  });

  it("accepts a loopback receiver when the operator allows private addresses; plain http only to a loopback address written as such", async () => {
    production("1");
    await owner();
    expect(await addEndpoint({ url: "https://127.0.0.1:8443/hooks" })).toMatchObject({ ok: true, data: { url: "https://127.0.0.1:8443/hooks" } });
    expect(await addEndpoint({ url: "http://127.0.0.1:9/hooks" })).toMatchObject({ ok: true, data: { url: "http://127.0.0.1:9/hooks" } });
    expect(await addEndpoint({ url: "http://[::1]:9/hooks" })).toMatchObject({ ok: true, data: { url: "http://[::1]:9/hooks" } });
    production();
    expect(await addEndpoint({ url: "http://127.0.0.1:9/hooks" })).toMatchObject({ ok: false, fieldErrors: { url: expect.stringContaining("https://") } });
  });

  it("an edit is checked as an addition is: a refused URL leaves the endpoint as it was", async () => {
    const m = await owner();
    const added = await addEndpoint({ url: receiverUrl });
    if (!added.ok) throw new Error("setup");
    production();
    const edit = { endpointId: added.data.id, description: "", enabled: true, allEvents: true, eventTypes: [] };
    expect(await updateWebhookEndpointAction({ ...edit, url: "https://10.1.2.3/hooks" })).toMatchObject({
      ok: false,
      fieldErrors: { url: expect.stringContaining("10.1.2.3") },
    });
    expect(await updateWebhookEndpointAction({ ...edit, url: "http://shop.example.com/hooks" })).toMatchObject({
      ok: false,
      fieldErrors: { url: expect.stringContaining("https://") },
    });
    const [row] = await t.db.select({ url: webhookEndpoints.url }).from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, m.merchantId));
    expect(row!.url).toBe(receiverUrl);
  });

  it("refuses a user name or password in the URL", async () => {
    await owner();
    expect(await addEndpoint({ url: "https://user:pass@example.com/hooks" })).toMatchObject({
      ok: false,
      fieldErrors: { url: "Endpoint URL must not contain a user name or password." },
    });
  });
});

describe("at send", () => {
  it("a URL saved while allowed is refused when sending in production: the try is logged, nothing reaches the receiver", async () => {
    const m = await owner();
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    const added = await addEndpoint({ url: receiverUrl });
    if (!added.ok) throw new Error("setup");
    const endpointId = added.data.id;
    const created = await createInvoice(
      t.db,
      m.merchant,
      "payment",
      bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }),
    );
    if (created.kind !== "created") throw new Error("setup");

    production();
    await changeInvoiceStatus(t.db, { id: created.invoice.id, status: "created", direction: "payment" }, "expired");
    await runJobs(t.db, ["webhook-deliver"]);
    const [event] = await listInvoiceEvents(t.db, m.merchantId, created.invoice.id);
    expect(event).toMatchObject({
      state: "failing",
      deliveries: [{ succeeded: false, statusCode: null, error: expect.stringMatching(/^Not sent: Endpoint URL must use https/) }],
    });

    production("0");
    vi.stubEnv("NODE_ENV", "development");
    expect(await sendTestWebhookAction({ endpointId })).toMatchObject({
      ok: true,
      data: { succeeded: false, statusCode: null, error: expect.stringContaining("127.0.0.1, a private, loopback") },
    });
    expect(hits).toBe(0);

    vi.unstubAllEnvs();
    expect(await sendTestWebhookAction({ endpointId })).toMatchObject({ ok: true, data: { succeeded: true, statusCode: 200 } });
    expect(hits).toBe(1);
  });

  it("the connection's own lookup refuses a name that resolves to a private address (DNS rebinding after the check)", async () => {
    production();
    const answer = await new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      guardedLookup("localhost", { all: true }, (error, address) => resolve({ error, address })),
    );
    expect(answer.error).toMatchObject({ code: "EWEBHOOKBLOCKED", message: expect.stringContaining("localhost") });
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", "1");
    const allowed = await new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      guardedLookup("localhost", {}, (error, address) => resolve({ error, address })),
    );
    expect(allowed.error).toBeNull();
    expect(["127.0.0.1", "::1"]).toContain(allowed.address);
  });
});
