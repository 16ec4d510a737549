import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The pages ask next-auth who is signed in; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null), signIn: async () => undefined }));
vi.mock("@/lib/dashboard/view-mode-cookie", () => ({ getViewMode: async () => "test" }));

import RequestLogEntryPage from "@/app/(dashboard)/logs/[id]/page";
import LogsPage from "@/app/(dashboard)/logs/page";
import { POST as CREATE_CONNECTION } from "@/app/api/connections/route";
import { GET as GET_PAYOUT_ONE } from "@/app/api/commerce/payout-invoices/[id]/route";
import { POST as POST_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import { createApiKey } from "@/lib/api-keys/queries";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { requestLog } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { readRequestLogFilter } from "@/lib/request-log/filters";
import { getRequestLogEntry, listRequestLog } from "@/lib/request-log/read";
import { sweepRequestLog } from "@/lib/request-log/sweep";
import { droppedRequestLogEntries, flushRequestLog, logRequest, type LoggedRequest } from "@/lib/request-log/writer";
import { serveCommerce } from "@/server/serve-commerce";
import { payoutExample } from "@/tests/fixtures/invoices";
import { setAppDb } from "./helpers/app-db";
import { isNextControlFlow } from "./helpers/bad-input";
import { createAttributes } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { send } from "./helpers/send";

/**
 * The request log: every request a merchant's API key makes to the invoice and management APIs is
 * kept (time, method, path, status, duration, the key's prefix and last four, request id,
 * idempotency key, the invoice or refund touched, the bodies with card numbers, CVCs and secrets
 * removed, cut at 16 kB), written off the request within a second, read by owners and (test mode
 * only) support on the Logs page; another merchant's request is not found.
 */
const t = setUpTestDb();

const FULL_CARD = "4111111111111111";
let A: TeamMerchant & { liveKey: string };
let B: TeamMerchant;
/** The write path's own merchant: its thousands of rows stay out of A's pages. */
let C: TeamMerchant;

const payout = (m: TeamMerchant, overrides: Record<string, unknown> = {}) =>
  bodyFor(payoutExample(), m.account, {
    reference_id: newReference(),
    fields: { card_number: FULL_CARD },
    options: { attempts_limit: 5, split_mode: false, allow_partially: false, auto_process: false },
    ...overrides,
  });

async function rowFor(requestId: string) {
  await flushRequestLog();
  const [row] = await t.db.select().from(requestLog).where(eq(requestLog.requestId, requestId));
  if (!row) throw new Error(`no log row for ${requestId}`);
  return row;
}

/** Renders a page as its caller would: its element tree, or the 404 / redirect it ends in. */
async function page(render: () => Promise<unknown>): Promise<{ notFound: boolean; text: string }> {
  try {
    return { notFound: false, text: JSON.stringify(await render()) };
  } catch (error) {
    if (isNextControlFlow(error)) return { notFound: String((error as { digest: string }).digest).includes("404"), text: "" };
    throw error;
  }
}

beforeAll(async () => {
  const a = await teamMerchant(t.db);
  A = { ...a, liveKey: (await createApiKey(t.db, { merchantId: a.merchantId, name: "live", mode: "live" })).key };
  B = await teamMerchant(t.db);
  C = await teamMerchant(t.db);
  for (const m of [A, B]) await connect(t.db, m.merchantId, "provider-a", "h2h");
});
beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  session.userId = undefined;
});

describe("what a request leaves in the log", () => {
  it("keeps a create: key by prefix and last four, request id, reference as idempotency key, the invoice, bodies without the card number", async () => {
    const body = payout(A);
    const answer = await send<{ id: string }>(
      POST_PAYOUT,
      {},
      { method: "POST", path: "/api/commerce/payout-invoices", key: A.key, body, headers: { "x-request-id": "req-log-create" } },
    );
    expect(answer.status).toBe(201);
    const row = await rowFor("req-log-create");
    expect(row).toMatchObject({
      merchantId: A.merchantId,
      testMode: true,
      method: "POST",
      path: "/api/commerce/payout-invoices",
      status: 201,
      apiKeyId: A.keyId,
      keyPrefix: "pok_test_",
      keyLastFour: A.key.slice(-4),
      idempotencyKey: body.data.attributes.reference_id,
      invoiceId: answer.json.data.id,
      refundId: null,
      requestTruncated: false,
    });
    expect(row.durationMs).toBeGreaterThanOrEqual(0);
    // A card number field loses its value; the answer shows the invoice's mask, as it always does.
    expect(row.requestBody).toContain('"card_number":"[redacted]"');
    expect(row.responseBody).toContain("411111******1111");
    expect(row.responseBody).toContain(answer.json.data.id);
    const stored = JSON.stringify(await t.db.select().from(requestLog));
    expect(stored).not.toContain(FULL_CARD);
    expect(stored).not.toContain(A.key);
    expect(stored).not.toContain(A.key.slice(0, -4));
  });

  it("keeps a read and a refusal with its problem, and names the invoice of the path", async () => {
    const created = await send<{ id: string }>(POST_PAYOUT, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: A.key, body: payout(A) });
    const id = created.json.data.id;
    await send(GET_PAYOUT_ONE, { id }, { path: `/api/commerce/payout-invoices/${id}`, key: A.key, headers: { "x-request-id": "req-log-read" } });
    const refused = await send(
      POST_PAYOUT,
      {},
      {
        method: "POST",
        path: "/api/commerce/payout-invoices",
        key: A.key,
        body: payout(A, { amount: -1, cvc: "123" }),
        headers: { "x-request-id": "req-log-422" },
      },
    );
    expect(refused.status).toBe(422);
    expect(await rowFor("req-log-read")).toMatchObject({ method: "GET", status: 200, invoiceId: id, requestBody: "" });
    const refusal = await rowFor("req-log-422");
    expect(refusal.status).toBe(422);
    expect(refusal.responseBody).toContain('"errors"');
    expect(refusal.requestBody).toContain('"cvc":"[redacted]"');
    expect(refusal.invoiceId).toBeNull();
  });

  it("removes the secrets of a connection made through the management API", async () => {
    const attributes = createAttributes("provider-d", "h2h");
    const credentials = attributes.credentials as Record<string, string>;
    const answer = await send(
      CREATE_CONNECTION,
      {},
      { method: "POST", path: "/api/connections", key: A.key, body: { data: { type: "connection", attributes } }, headers: { "x-request-id": "req-log-conn" } },
    );
    expect(answer.status).toBe(201);
    const row = await rowFor("req-log-conn");
    expect(row.path).toBe("/api/connections");
    expect(row.requestBody).toContain('"api_key":"[redacted]"');
    expect(row.requestBody).toContain('"secret_key":"[redacted]"');
    for (const field of ["api_key", "secret_key"]) {
      expect(row.requestBody).not.toContain(credentials[field]!);
      expect(row.responseBody).not.toContain(credentials[field]!);
    }
    expect(row.requestBody).toContain(credentials.merchant_id!);
  });

  it("logs a live key's requests as live, and nothing for an unknown key", async () => {
    await send(
      POST_PAYOUT,
      {},
      { method: "POST", path: "/api/commerce/payout-invoices", key: A.liveKey, body: payout(A), headers: { "x-request-id": "req-log-live" } },
    );
    expect(await rowFor("req-log-live")).toMatchObject({ testMode: false, keyPrefix: "pok_live_", status: 403 });
    await send(
      POST_PAYOUT,
      {},
      {
        method: "POST",
        path: "/api/commerce/payout-invoices",
        key: "pok_test_unknownunknownunknownunknown",
        body: payout(A),
        headers: { "x-request-id": "req-log-401" },
      },
    );
    await flushRequestLog();
    expect(await t.db.select().from(requestLog).where(eq(requestLog.requestId, "req-log-401"))).toEqual([]);
  });

  it("cuts a body at 16 kB after removing what it must", async () => {
    const long = `${"x".repeat(20_000)}`;
    await send(
      POST_PAYOUT,
      {},
      {
        method: "POST",
        path: "/api/commerce/payout-invoices",
        key: A.key,
        body: payout(A, { description: long, card_number: FULL_CARD }),
        headers: { "x-request-id": "req-log-long" },
      },
    );
    const row = await rowFor("req-log-long");
    expect(row.requestTruncated).toBe(true);
    expect(Buffer.byteLength(row.requestBody)).toBeLessThanOrEqual(16 * 1024);
    expect(row.requestBody).not.toContain(FULL_CARD);
  });

  it("keeps the body the lean path (npm start) read, and its answer", async () => {
    const server = http.createServer((req, res) => {
      const { pathname } = new URL(req.url ?? "/", "http://127.0.0.1");
      void serveCommerce(req, res, pathname, "http://127.0.0.1").then((served) => {
        if (!served) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/api/commerce/payout-invoices`, {
        method: "POST",
        headers: { authorization: `Bearer ${A.key}`, "content-type": "application/vnd.api+json", "x-request-id": "req-log-lean" },
        body: JSON.stringify(payout(A)),
      });
      expect(response.status).toBe(201);
      const id = ((await response.json()) as { data: { id: string } }).data.id;
      const row = await rowFor("req-log-lean");
      expect(row).toMatchObject({ status: 201, invoiceId: id });
      expect(row.requestBody).toContain('"card_number":"[redacted]"');
      expect(row.requestBody).not.toContain(FULL_CARD);
      expect(row.responseBody).toContain(id);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the write path", () => {
  const entry = (requestId: string): LoggedRequest => ({
    merchantId: C.merchantId,
    testMode: true,
    at: new Date(),
    method: "GET",
    path: "/api/commerce/payment-invoices",
    status: 200,
    durationMs: 1,
    apiKeyId: C.keyId,
    keyPrefix: "pok_test_",
    keyLastFour: "abcd",
    requestId,
    idempotencyKey: undefined,
    requestBody: "",
    responseBody: '{"data":[]}',
  });

  it("keeps what it could not write while the database is away, and writes it when it is back", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    setAppDb(undefined);
    try {
      logRequest(entry("req-log-away"));
      await flushRequestLog();
    } finally {
      setAppDb(t.db);
    }
    expect(logger.warn).toHaveBeenCalledWith("request log write failed", expect.objectContaining({ rows: 1 }));
    expect(await rowFor("req-log-away")).toMatchObject({ status: 200 });
  });

  it("keeps a request whose path and body hold a NUL character (shown as U+FFFD), and the requests written with it", async () => {
    logRequest({ ...entry("req-log-nul"), path: "/api/commerce/payment-invoices/x\u0000", requestBody: '{"a":"\u0000"}', idempotencyKey: "k\u0000" });
    logRequest(entry("req-log-beside-nul"));
    expect(await rowFor("req-log-nul")).toMatchObject({
      path: "/api/commerce/payment-invoices/x\uFFFD",
      requestBody: '{"a":"\uFFFD"}',
      idempotencyKey: "k\uFFFD",
    });
    expect(await rowFor("req-log-beside-nul")).toMatchObject({ status: 200 });
  });

  it("keeps every character a body may hold as it was sent: quotes, separators, line ends, backslashes, the end-of-data mark, emoji", async () => {
    const odd = 'a "quoted", comma;\r\nnew line\n\\.\n\\N\ttab \\ back\\slash \u00e9 \u{1F600} "" ,,';
    logRequest({
      ...entry("req-log-odd"),
      method: "POST",
      path: `/api/commerce/payment-invoices?q="x",y`,
      requestBody: odd,
      responseBody: JSON.stringify({ note: odd }),
      idempotencyKey: '"k",\n',
    });
    logRequest({ ...entry("req-log-after-odd"), requestBody: "\\.", responseBody: "" });
    expect(await rowFor("req-log-odd")).toMatchObject({
      path: `/api/commerce/payment-invoices?q="x",y`,
      requestBody: odd,
      responseBody: JSON.stringify({ note: odd }),
      idempotencyKey: '"k",\n',
      invoiceId: null,
      refundId: null,
      requestTruncated: false,
    });
    expect(await rowFor("req-log-after-odd")).toMatchObject({ requestBody: "\\.", responseBody: "", idempotencyKey: null });
  });

  it("keeps writing when its encoder thread stops: the rows are then made in the thread that answers requests", async () => {
    logRequest(entry("req-log-before-stop"));
    await rowFor("req-log-before-stop");
    const writerState = (globalThis as { __requestLogWriter?: { encoder?: { worker: { terminate: () => Promise<number> } } | null } }).__requestLogWriter;
    // The encoder thread did the first one's rows; it stops now.
    expect(writerState?.encoder).toBeTruthy();
    await writerState!.encoder!.worker.terminate();
    expect(writerState!.encoder).toBeNull();
    logRequest({ ...entry("req-log-after-stop"), requestBody: `{"card_number":"${FULL_CARD}"}` });
    const row = await rowFor("req-log-after-stop");
    expect(row.requestBody).toBe('{"card_number":"[redacted]"}');
  });

  it("never holds more than its bound: the oldest go first, counted", async () => {
    const before = droppedRequestLogEntries();
    for (let i = 0; i < 5003; i += 1) logRequest(entry(`req-log-bound-${i}`));
    expect(droppedRequestLogEntries() - before).toBe(3);
    await flushRequestLog();
    const rows = await t.db.select({ requestId: requestLog.requestId }).from(requestLog);
    const ids = new Set(rows.map((row) => row.requestId));
    expect(ids.has("req-log-bound-0")).toBe(false);
    expect(ids.has("req-log-bound-3")).toBe(true);
    expect(ids.has("req-log-bound-5002")).toBe(true);
  });

  it("sweeps the requests older than REQUEST_LOG_DAYS", async () => {
    const now = new Date();
    const day = 86_400_000;
    logRequest({ ...entry("req-log-old"), at: new Date(now.getTime() - 31 * day) });
    logRequest({ ...entry("req-log-recent"), at: new Date(now.getTime() - 2 * day) });
    await flushRequestLog();
    expect(await sweepRequestLog(t.db, now)).toBeGreaterThanOrEqual(1);
    const left = new Set((await t.db.select({ requestId: requestLog.requestId }).from(requestLog)).map((row) => row.requestId));
    expect(left.has("req-log-old")).toBe(false);
    expect(left.has("req-log-recent")).toBe(true);
    vi.stubEnv("REQUEST_LOG_DAYS", "1");
    try {
      await sweepRequestLog(t.db, now);
    } finally {
      vi.unstubAllEnvs();
    }
    expect((await t.db.select().from(requestLog).where(eq(requestLog.requestId, "req-log-recent"))).length).toBe(0);
  });
});

describe("reading the log", () => {
  it("filters by status class, path, key and invoice, in keyset pages, within the merchant and mode", async () => {
    const created = await send<{ id: string }>(POST_PAYOUT, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: A.key, body: payout(A) });
    const id = created.json.data.id;
    for (let i = 0; i < 3; i += 1) await send(GET_PAYOUT_ONE, { id }, { path: `/api/commerce/payout-invoices/${id}`, key: A.key });
    await send(POST_PAYOUT, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: B.key, body: payout(B) });
    await flushRequestLog();

    const byInvoice = await listRequestLog(t.db, A.merchantId, "test", { invoice: id });
    expect(byInvoice.entries.map((e) => e.method)).toEqual(["GET", "GET", "GET", "POST"]);
    const first = await listRequestLog(t.db, A.merchantId, "test", { invoice: id }, "UTC", 3);
    expect(first.entries).toHaveLength(3);
    const second = await listRequestLog(t.db, A.merchantId, "test", { invoice: id, after: first.nextCursor }, "UTC", 3);
    expect(second.entries.map((e) => e.method)).toEqual(["POST"]);
    expect(second.nextCursor).toBeUndefined();

    const errors = await listRequestLog(t.db, A.merchantId, "test", { status: "4xx" });
    expect(errors.entries.length).toBeGreaterThan(0);
    expect(errors.entries.every((e) => e.status >= 400 && e.status < 500)).toBe(true);
    const connections = await listRequestLog(t.db, A.merchantId, "test", { path: "/api/connections" });
    expect(connections.entries.every((e) => e.path.includes("/api/connections"))).toBe(true);
    expect(connections.entries.length).toBeGreaterThan(0);
    expect((await listRequestLog(t.db, A.merchantId, "test", { key: B.keyId })).entries).toEqual([]);
    // B's requests are B's: not in A's log, in either mode.
    const everything = [
      ...(await listRequestLog(t.db, A.merchantId, "test", {}, "UTC", 10_000)).entries,
      ...(await listRequestLog(t.db, A.merchantId, "live", {}, "UTC", 10_000)).entries,
    ];
    expect(everything.some((e) => e.apiKeyId === B.keyId)).toBe(false);
    expect((await listRequestLog(t.db, A.merchantId, "live", {})).entries.every((e) => !e.testMode)).toBe(true);
  });

  it("reads every hostile filter value as a named problem, never a failure", async () => {
    const hostile = [
      "'; drop table request_log; --",
      "%",
      "_",
      "\\",
      "x".repeat(500),
      "2026-02-30",
      "9999-99-99",
      "1e3",
      "constructor",
      "../../etc",
      "\u0000",
      "<script>",
    ];
    for (const value of hostile) {
      const params = { mode: value, status: value, path: value, key: value, invoice: value, from: value, to: value, after: value };
      const { filter, errors } = readRequestLogFilter(params);
      expect(Object.keys(errors).length, value).toBeGreaterThan(0);
      await expect(listRequestLog(t.db, A.merchantId, "test", filter)).resolves.toBeDefined();
    }
    expect(readRequestLogFilter({ path: "/api/%_" }).filter.path).toBe("/api/%_");
    expect((await listRequestLog(t.db, A.merchantId, "test", { path: "/api/%_" })).entries).toEqual([]);
    expect(readRequestLogFilter({ from: "2026-12-06", to: "2026-12-01" }).errors.to).toBe("The end date is before the start date");
  });

  it("shows an owner its own request; another merchant's is not found, and support finds live ones not found", async () => {
    await send(
      GET_PAYOUT_ONE,
      { id: "cpoi_none" },
      { path: "/api/commerce/payout-invoices/cpoi_none", key: A.liveKey, headers: { "x-request-id": "req-log-page-live" } },
    );
    await send(
      POST_PAYOUT,
      {},
      { method: "POST", path: "/api/commerce/payout-invoices", key: B.key, body: payout(B), headers: { "x-request-id": "req-log-page-b" } },
    );
    const ownTest = await rowFor("req-log-create");
    const ownLive = await rowFor("req-log-page-live");
    const other = await rowFor("req-log-page-b");
    const show = (id: string) => page(() => RequestLogEntryPage({ params: Promise.resolve({ id }) }));

    session.userId = A.ownerId;
    const shown = await show(ownTest.id);
    expect(shown.notFound).toBe(false);
    expect(shown.text).toContain("[redacted]");
    expect(shown.text).toContain("411111******1111");
    expect(shown.text).toContain(ownTest.invoiceId!);
    expect(shown.text).not.toContain(FULL_CARD);
    expect((await show(ownLive.id)).notFound).toBe(false);
    expect((await show(other.id)).notFound).toBe(true);
    expect((await show("rql_nonesuch")).notFound).toBe(true);
    expect(await getRequestLogEntry(t.db, A.merchantId, other.id)).toBeUndefined();

    session.userId = A.supportId;
    expect((await show(ownTest.id)).notFound).toBe(false);
    expect((await show(ownLive.id)).notFound).toBe(true);
    // The list: support asking for live mode sees the test requests and is told why.
    const list = await page(async () => LogsPage({ searchParams: Promise.resolve({ mode: "live" }) }));
    expect(list.text).toContain("Your role reads test-mode requests only");
    const newestTest = (await listRequestLog(t.db, A.merchantId, "test", {})).entries[0]!;
    expect(list.text).toContain(`/logs/${newestTest.id}`);
    expect(list.text).not.toContain(`/logs/${ownLive.id}`);
    session.userId = A.ownerId;
    const owners = await page(async () => LogsPage({ searchParams: Promise.resolve({ mode: "live" }) }));
    expect(owners.text).toContain(`/logs/${ownLive.id}`);
  });
});

afterAll(async () => {
  await flushRequestLog();
});
