import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The hosted page's action shares lib/actions' runner, which can read a session: nobody is signed in here.
vi.mock("@/lib/auth", () => ({ auth: async () => null }));
import * as connectionRoute from "@/app/api/connections/[id]/route";
import * as paymentRoute from "@/app/api/commerce/payment-invoices/[id]/route";
import { payOnHostedPage } from "./helpers/hosted-page";
import { DEFAULT_RATE_LIMITS, forgetLocalBuckets, overrideRateLimits, RATE_LIMIT_BURST, readRateLimitSettings, resetRateLimits } from "@/lib/api/rate-limit";
import { apiNotFound } from "@/lib/api/not-found-route";
import { createApiKey } from "@/lib/api-keys/queries";
import { createSharedRateLimiter, forgetLocalWindows } from "@/lib/rate-limit/limiter";
import { leaseSharedTokenPair, takeSharedTokenPair } from "@/lib/rate-limit/store";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { invoices } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { PAY_TRIES_PER_INVOICE } from "@/lib/pay/pay-limit";
import { setUpTestDb, unique } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/**
 * The limits a caller meets. The API's per-key limit (a burst of
 * RATE_LIMIT_BURST, then 429 with Retry-After, other keys untouched), its per-merchant limit (all
 * of a merchant's keys together; held by every instance on PostgreSQL) and the
 * hosted page's limit on Pay per invoice. The sign-in limit: tests/integration/sign-in-limit.test.ts (and
 * e2e/tenants-sign-in-limit.api.spec.ts over HTTP).
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"] });

beforeEach(() => {
  resetRateLimits();
  fake.reset();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => {
  overrideRateLimits(undefined);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

function get(handler: Handler, id: string, key: string) {
  return handler(new Request(`http://test/probe/${id}`, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ id }) });
}

describe("the API's limit per key", () => {
  it("serves a burst, then answers 429 with Retry-After and a JSON:API error, counting every route of the key, and leaves other keys alone", async () => {
    const m = await invoiceMerchant(t.db);
    const other = await invoiceMerchant(t.db);
    // The clock stands still, so no token comes back while the burst is sent: what is counted is requests, not speed.
    vi.useFakeTimers({ toFake: ["Date"] });
    const statuses = new Map<number, number>();
    for (let i = 0; i < RATE_LIMIT_BURST; i += 1) {
      // Two routes, one bucket: the limit is the key's, whichever route it calls.
      const handler = (i % 2 ? connectionRoute.GET : paymentRoute.GET) as Handler;
      const status = (await get(handler, i % 2 ? "conn_unknown" : "cpi_unknown", m.key)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 404: RATE_LIMIT_BURST });

    const limited = await get(connectionRoute.GET as Handler, "conn_unknown", m.key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.headers.get("x-request-id")).toBeTruthy();
    const body = (await limited.json()) as { errors: { status: string; code: string; detail: string }[] };
    expect(body.errors).toEqual([
      expect.objectContaining({
        status: "429",
        code: "rate_limited",
        detail: `This API key's limit (100 requests per second, bursts of ${RATE_LIMIT_BURST}) is reached; retry after 1 second(s).`,
      }),
    ]);

    // Another merchant's key has its own bucket.
    expect((await get(connectionRoute.GET as Handler, "conn_unknown", other.key)).status).toBe(404);

    // A second later the key has earned 100 tokens back (RATE_LIMIT_PER_SECOND), so it is served again.
    vi.setSystemTime(Date.now() + 1_000);
    expect((await get(connectionRoute.GET as Handler, "conn_unknown", m.key)).status).toBe(404);
  });
});

type ErrorBody = { errors: { status: string; code: string; title: string; detail: string }[] };

describe("the API's limit per merchant, all its keys together", () => {
  // Small limits so a burst is a handful of requests: 0.5 requests a second, so no token comes back while a test runs.
  const small = { key: { perSecond: 0.5, burst: 3 }, merchant: { perSecond: 0.5, burst: 5 } };

  it("counts every key of the merchant in one bucket, names the merchant limit in a 429 with Retry-After, and leaves other merchants alone", async () => {
    overrideRateLimits(small);
    const m = await invoiceMerchant(t.db);
    const second = (await createApiKey(t.db, { merchantId: m.merchantId, name: "second integration" })).key;
    const third = (await createApiKey(t.db, { merchantId: m.merchantId, name: "third integration" })).key;
    const other = await invoiceMerchant(t.db);
    const probe = (key: string) => get(connectionRoute.GET as Handler, "conn_unknown", key);

    // Five requests over three keys, none over its own limit of 3: the merchant's burst of 5 is spent.
    for (const key of [m.key, second, third, m.key, second]) expect((await probe(key)).status).toBe(404);
    const limited = await probe(third);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(limited.headers.get("x-request-id")).toBeTruthy();
    expect(((await limited.json()) as ErrorBody).errors).toEqual([
      {
        status: "429",
        code: "merchant_rate_limited",
        title: "Too many requests",
        detail: "The limit for all of this merchant's API keys together (0.5 requests per second, bursts of 5) is reached; retry after 2 second(s).",
      },
    ]);
    // A new key does not escape it: the limit is the merchant's.
    const fourth = (await createApiKey(t.db, { merchantId: m.merchantId, name: "fourth integration" })).key;
    expect(((await (await probe(fourth)).json()) as ErrorBody).errors[0]!.code).toBe("merchant_rate_limited");
    // Another merchant has its own.
    expect((await probe(other.key)).status).toBe(404);
  });

  it("asks the key's limit first: a request its key may not send spends nothing of the merchant's", async () => {
    overrideRateLimits(small);
    const m = await invoiceMerchant(t.db);
    const second = (await createApiKey(t.db, { merchantId: m.merchantId, name: "second integration" })).key;
    const probe = (key: string) => get(paymentRoute.GET as Handler, "cpi_unknown", key);

    const first = [];
    for (let i = 0; i < 6; i += 1) first.push((await probe(m.key)).status);
    expect(first).toEqual([404, 404, 404, 429, 429, 429]);
    const keyLimited = (await (await probe(m.key)).json()) as ErrorBody;
    expect(keyLimited.errors[0]).toMatchObject({
      code: "rate_limited",
      detail: expect.stringContaining("This API key's limit (0.5 requests per second, bursts of 3)"),
    });

    // The merchant's 5 lost only the 3 served: the second key gets 2, then the merchant's limit.
    const then = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await probe(second);
      then.push(answer.status === 429 ? ((await answer.json()) as ErrorBody).errors[0]!.code : answer.status);
    }
    expect(then).toEqual([404, 404, "merchant_rate_limited"]);
  });

  it("on PostgreSQL is held in the shared store, so another instance (with none of this one's memory) refuses too", async () => {
    overrideRateLimits(small);
    const m = await invoiceMerchant(t.db);
    const second = (await createApiKey(t.db, { merchantId: m.merchantId, name: "second integration" })).key;
    const probe = (key: string) => get(connectionRoute.GET as Handler, "conn_unknown", key);
    for (const key of [m.key, second, m.key, second, m.key]) expect((await probe(key)).status).toBe(404);
    expect((await probe(second)).status).toBe(429);

    // A freshly started instance: no bucket in its memory. A key not used yet, so only the merchant's limit can refuse.
    forgetLocalBuckets();
    const fresh = (await createApiKey(t.db, { merchantId: m.merchantId, name: "third integration" })).key;
    const answer = await probe(fresh);
    if (t.kind === "postgres") {
      // The shared bucket, which every instance on this database asks, is still spent.
      expect(answer.status).toBe(429);
      expect(((await answer.json()) as ErrorBody).errors[0]!.code).toBe("merchant_rate_limited");
    } else {
      // The embedded database has one process: its memory is the only bucket, and a restart starts it afresh.
      expect(answer.status).toBe(404);
    }
  });
});

describe("every other limit, held by every instance on PostgreSQL", () => {
  it("a public route's limit per client address: spent on one instance, spent on all", async () => {
    overrideRateLimits({ key: { perSecond: 0.1, burst: 3 }, merchant: { perSecond: 0.1, burst: 3 } });
    const address = "203.0.113.7";
    const probe = (from: string) =>
      apiNotFound(new Request("http://test/api/nothing-here", { headers: { "x-forwarded-for": from } }), {
        params: Promise.resolve({ rest: ["nothing-here"] }),
      });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await probe(address)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect((await probe("198.51.100.9")).status).toBe(404);

    // A freshly started instance: nothing in its memory.
    forgetLocalBuckets();
    const fresh = await probe(address);
    if (t.kind === "postgres") {
      expect(fresh.status).toBe(429);
      // One token every 10 s by the database's clock: 10, or 9 once a second has passed since the third request.
      expect(["9", "10"]).toContain(fresh.headers.get("retry-after"));
    } else {
      // The embedded database has one process: a restart starts its memory afresh.
      expect(fresh.status).toBe(404);
    }
  });

  it("sign-up, password reset and change, and Pay: limiters of one name are one limit, and a fresh instance inherits what was spent", async () => {
    const name = unique("limit");
    const first = createSharedRateLimiter(name, 3, 60_000);
    const second = createSharedRateLimiter(name, 3, 60_000);
    expect((await first.attempt("k")).retryAfterSeconds).toBe(0);
    expect((await second.attempt("k")).retryAfterSeconds).toBe(0);
    const third = await first.attempt("k");
    expect(third).toMatchObject({ count: 3, retryAfterSeconds: 0 });
    expect((await second.attempt("k")).retryAfterSeconds).toBeGreaterThan(55);
    expect((await second.attempt("other")).retryAfterSeconds).toBe(0);

    forgetLocalWindows();
    const fresh = await createSharedRateLimiter(name, 3, 60_000).attempt("k");
    if (t.kind === "postgres") expect(fresh.retryAfterSeconds).toBeGreaterThan(55);
    else expect(fresh).toMatchObject({ count: 1, retryAfterSeconds: 0 });
  });

  it("an attempt counts and decides in one step: of 20 simultaneous tries against a limit of 5, exactly 5 pass", async () => {
    const limiter = createSharedRateLimiter(unique("attempt"), 5, 60_000);
    const attempts = await Promise.all(Array.from({ length: 20 }, () => limiter.attempt("invoice")));
    expect(attempts.filter((a) => a.retryAfterSeconds === 0)).toHaveLength(5);
    for (const a of attempts.filter((a) => a.retryAfterSeconds > 0)) expect(a.retryAfterSeconds).toBeGreaterThan(55);
    expect((await limiter.attempt("another invoice")).retryAfterSeconds).toBe(0);
  });

  it("a forgiven attempt gives its place back, once however often it is forgiven", async () => {
    const limiter = createSharedRateLimiter(unique("forgive"), 2, 60_000);
    const right = await limiter.attempt("k");
    await right.forgive();
    await right.forgive();
    expect((await limiter.attempt("k")).count).toBe(1);
    expect((await limiter.attempt("k")).retryAfterSeconds).toBe(0);
    expect((await limiter.attempt("k")).retryAfterSeconds).toBeGreaterThan(55);
  });
});

describe("the shared store's two buckets in one statement", () => {
  it("takes from the second bucket only when the first granted, and says when to retry", async () => {
    const run = unique("pair");
    const merchant = { key: `${run}:merchant`, perSecond: 0.5, burst: 3 };
    const keyA = { key: `${run}:key-a`, perSecond: 0.5, burst: 2 };
    const keyB = { key: `${run}:key-b`, perSecond: 0.5, burst: 2 };
    expect(await takeSharedTokenPair(keyA, merchant, t.db)).toEqual({ first: { ok: true }, second: { ok: true } });
    expect(await takeSharedTokenPair(keyA, merchant, t.db)).toEqual({ first: { ok: true }, second: { ok: true } });
    // Key A is spent: refused, and the merchant's bucket is not touched.
    expect(await takeSharedTokenPair(keyA, merchant, t.db)).toEqual({ first: { ok: false, retryAfterSeconds: 2 } });
    // So key B still finds the merchant's last token, then the merchant is spent.
    expect(await takeSharedTokenPair(keyB, merchant, t.db)).toEqual({ first: { ok: true }, second: { ok: true } });
    expect(await takeSharedTokenPair(keyB, merchant, t.db)).toEqual({ first: { ok: true }, second: { ok: false, retryAfterSeconds: 2 } });
  });
});

describe("the shared buckets leased a few tokens at a time", () => {
  it("leases ten while at least twice as many are left, then one at a time, and never more than the burst in all", async () => {
    const run = unique("lease");
    const key = { key: `${run}:key`, perSecond: 0.001, burst: 30 };
    const merchant = { key: `${run}:merchant`, perSecond: 0.001, burst: 1000 };
    const taken: number[] = [];
    for (let i = 0; i < 14; i += 1) {
      const lease = await leaseSharedTokenPair(key, merchant, 10, t.db);
      taken.push(Math.min(lease.first.taken, lease.second?.taken ?? 0));
    }
    expect(taken).toEqual([10, 10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
    expect(taken.reduce((a, b) => a + b, 0)).toBe(30);
  });

  it("takes from the merchant's bucket only what the key's granted, one at a time when the merchant's is near its limit", async () => {
    const run = unique("lease-pair");
    const merchant = { key: `${run}:merchant`, perSecond: 0.001, burst: 12 };
    const key = { key: `${run}:key`, perSecond: 0.001, burst: 100 };
    const first = await leaseSharedTokenPair(key, merchant, 10, t.db);
    // The key's bucket has plenty (10 taken); the merchant's 12 are fewer than twice 10: one.
    expect(first).toEqual({ first: { taken: 10, retryAfterSeconds: 0 }, second: { taken: 1, retryAfterSeconds: 0 } });
    let granted = 1;
    for (let i = 0; i < 20; i += 1) {
      const lease = await leaseSharedTokenPair(key, merchant, 10, t.db);
      granted += Math.min(lease.first.taken, lease.second?.taken ?? 0);
    }
    expect(granted).toBe(12);
  });

  it("100 simultaneous requests of one key are served up to its burst and refused after it, leases or not", async () => {
    overrideRateLimits({ key: { perSecond: 0.5, burst: 30 }, merchant: { perSecond: 0.5, burst: 1000 } });
    const m = await invoiceMerchant(t.db);
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: 100 }, () => get(connectionRoute.GET as Handler, "conn_unknown", m.key).then((r) => r.status)));
    const refill = Math.ceil(((Date.now() - started) / 1000) * 0.5);
    const served = statuses.filter((s) => s === 404).length;
    expect(served + statuses.filter((s) => s === 429).length).toBe(100);
    expect(served).toBeGreaterThanOrEqual(30);
    expect(served).toBeLessThanOrEqual(30 + refill);
  });
});

describe("the limits as operator settings", () => {
  it("default to 100/s (burst 200) per key and 1000/s (burst 2000) per merchant", () => {
    expect(readRateLimitSettings({})).toEqual({ key: { perSecond: 100, burst: 200 }, merchant: { perSecond: 1000, burst: 2000 } });
    expect(DEFAULT_RATE_LIMITS).toEqual(readRateLimitSettings({}));
  });

  it("read all four variables", () => {
    expect(
      readRateLimitSettings({
        API_RATE_LIMIT_PER_SECOND: "20",
        API_RATE_LIMIT_BURST: "40",
        API_MERCHANT_RATE_LIMIT_PER_SECOND: "2.5",
        API_MERCHANT_RATE_LIMIT_BURST: " 300 ",
      }),
    ).toEqual({ key: { perSecond: 20, burst: 40 }, merchant: { perSecond: 2.5, burst: 300 } });
  });

  it("stop the server at start when one is bad, with the message and nothing else started", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rate-limit-start-"));
    try {
      const run = spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "--import",
          "./scripts/register-server-only.mjs",
          "--input-type=module",
          "-e",
          "await (await import('./lib/server-start.ts')).startServer(); console.log('started');",
        ],
        {
          cwd: process.cwd(),
          env: { ...process.env, DATABASE_URL: "", DATA_DIR: dir, API_MERCHANT_RATE_LIMIT_BURST: "lots", LOG_LEVEL: "silent" },
          encoding: "utf8",
          timeout: 60_000,
        },
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('Cannot start: API_MERCHANT_RATE_LIMIT_BURST must be a whole number of requests from 1 to 1000000, got "lots"');
      expect(run.stdout).not.toContain("started");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["API_RATE_LIMIT_PER_SECOND", "0", /API_RATE_LIMIT_PER_SECOND must be a number of requests per second above 0 and at most 1000000, got "0"/],
    ["API_RATE_LIMIT_PER_SECOND", "fast", /API_RATE_LIMIT_PER_SECOND must be .*got "fast"/],
    ["API_RATE_LIMIT_BURST", "2.5", /API_RATE_LIMIT_BURST must be a whole number of requests from 1 to 1000000, got "2.5"/],
    ["API_MERCHANT_RATE_LIMIT_PER_SECOND", "-1", /API_MERCHANT_RATE_LIMIT_PER_SECOND must be .*got "-1"/],
    ["API_MERCHANT_RATE_LIMIT_PER_SECOND", "1e9", /API_MERCHANT_RATE_LIMIT_PER_SECOND must be .*at most 1000000, got "1e9"/],
    ["API_MERCHANT_RATE_LIMIT_BURST", "0", /API_MERCHANT_RATE_LIMIT_BURST must be a whole number .*got "0"/],
  ])("refuse %s=%s with a message naming the variable and the value", (name, value, message) => {
    expect(() => readRateLimitSettings({ [name]: value })).toThrow(message);
  });
});

describe("the hosted page's limit on Pay, per invoice", () => {
  const CARD = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "737", holder: "Heidi Muster" };

  async function hostedInvoice(m: InvoiceMerchant): Promise<string> {
    const body = templateEnvelope(findTemplate("a-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = {};
    body.data.attributes.test_mode = true;
    const created = await createInvoice(t.db, m.merchant, "payment", body);
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
    return created.invoice.id;
  }

  const statusOf = async (id: string) => (await t.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, id)))[0]?.status;

  it(`takes ${PAY_TRIES_PER_INVOICE} submissions of the form, then refuses with a clear message and reaches no provider; other invoices pay`, async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-a", "h2h");
    const id = await hostedInvoice(m);

    // A scripted client sends a form the page would not: each is counted and answered with the field's error.
    for (let i = 0; i < PAY_TRIES_PER_INVOICE; i += 1) {
      const answer = await payOnHostedPage(id, { ...CARD, number: `4242 424${i}` });
      expect(answer).toMatchObject({ ok: false, fieldErrors: { number: expect.stringMatching(/card number/) } });
    }
    // The next one, even with a good card, is refused before the card is read.
    const refused = await payOnHostedPage(id, CARD);
    expect(refused).toEqual({
      status: 200,
      ok: false,
      fieldErrors: {},
      message: "Too many payment tries for this invoice. No payment was taken; wait 15 minutes and try again.",
    });
    expect(fake.calls).toEqual([]);
    expect(await statusOf(id)).toBe("created");

    // The limit is the invoice's: another invoice of the same merchant is paid at once.
    const second = await hostedInvoice(m);
    const paid = await payOnHostedPage(second, CARD);
    expect(paid).toMatchObject({ ok: true, kind: "result", invoice: { id: second, outcome: { kind: "paid" } } });
    expect(fake.calls).toHaveLength(1);
  });

  it("counts declined payments too: a card tester gets no more than the limit per invoice", async () => {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-a", "h2h");
    const id = await hostedInvoice(m);
    // Hard declines leave the invoice payable until its attempts limit (5); the tries before it are form errors.
    fake.script.set(
      connection.id,
      Array.from({ length: 5 }, () => ({ kind: "declined" as const, resolution: "issuer_decline" as const, message: "Do not honour" })),
    );
    for (let i = 0; i < PAY_TRIES_PER_INVOICE - 4; i += 1) {
      expect(await payOnHostedPage(id, { ...CARD, expiry: "13/30" })).toMatchObject({ ok: false, fieldErrors: { expiry: expect.any(String) } });
    }
    for (let i = 0; i < 4; i += 1) {
      expect(await payOnHostedPage(id, CARD)).toMatchObject({ ok: true, kind: "result", invoice: { canPay: true } });
    }
    expect(fake.calls).toHaveLength(4);
    expect(await payOnHostedPage(id, CARD)).toMatchObject({ ok: false, message: expect.stringContaining("Too many payment tries for this invoice") });
    expect(fake.calls).toHaveLength(4);
    expect(await statusOf(id)).toBe("process_failed");
  });
});
