import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/api-keys/queries";
import { stopCacheInvalidation } from "@/lib/cache/invalidation";
import type { Db } from "@/lib/db/client";
import { invoiceAttempts } from "@/lib/db/schema";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { verifyWebhook } from "@/lib/webhooks/verify-example";
import { startInstance, stopInstance, suiteJobsSchema, type Instance } from "./helpers/instances";
import { apiHeaders, openSuiteDb, seedConnection, seedMerchant, timeUntil } from "./helpers/seed";

/**
 * Two real app processes (server.ts over the production
 * build, job workers on) on one PostgreSQL share the work and the limits, and a revoked key or a
 * disabled connection stops working on the other instance within a second (LISTEN/NOTIFY cache
 * invalidation, lib/cache/invalidation.ts).
 *
 * The per-key API limit, which public routes also apply per client address, is lowered for these
 * instances (API_RATE_LIMIT_PER_SECOND=2, API_RATE_LIMIT_BURST=30), so a burst's total does not
 * depend on how fast the machine serves it.
 */
const PER_SECOND = 2;
const BURST = 30;

let suite: { db: Db; close: () => Promise<void> };
let a: Instance | undefined;
let b: Instance | undefined;
const jobsSchema = suiteJobsSchema();

beforeAll(async () => {
  suite = await openSuiteDb();
  const env = {
    JOBS_SCHEMA: jobsSchema,
    API_RATE_LIMIT_PER_SECOND: String(PER_SECOND),
    API_RATE_LIMIT_BURST: String(BURST),
    WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
    TRUST_PROXY_HOPS: "1",
  };
  // One at a time: both apply migrations at start (under an advisory lock) and the machine is small.
  a = await startInstance("a", env);
  b = await startInstance("b", env);
});

afterAll(async () => {
  await Promise.all([stopInstance(a), stopInstance(b)]);
  await stopCacheInvalidation();
  await suite?.close();
});

type Json = {
  data?: { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data: { id: string } | null }> };
  errors?: { code: string }[];
};

async function call(instance: Instance, path: string, key: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${instance.url}${path}`, {
    method: init.method ?? "GET",
    headers: apiHeaders(key),
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Json) : {} };
}

function paymentBody(account: string) {
  return {
    data: {
      type: "payment-invoice",
      attributes: {
        service: "payment_card_eur_hpp",
        commerce_account: account,
        currency: "EUR",
        amount: "10.50",
        reference_id: randomUUID(),
        flow: "charge",
        test_mode: true,
        options: { allow_partially: false },
        customer: { name: "Ada", email: "ada@example.com", address: { country: "GB", city: "London" } },
      },
    },
  };
}

function payoutBody(account: string) {
  return {
    data: {
      type: "payout-invoice",
      attributes: {
        commerce_account: account,
        reference_id: `rel-${randomBytes(6).toString("hex")}`,
        service: "payment_card_uah",
        currency: "UAH",
        amount: "120.00",
        test_mode: true,
        fields: { card_number: "4242424242424242" },
        options: { auto_process: true },
      },
    },
  };
}

describe("cache invalidation across instances", () => {
  it("a revoked API key is refused by the other instance within a second", async () => {
    const m = await seedMerchant(suite.db);
    // Instance B has served the key (and holds it in its key cache) before the revoke.
    for (let i = 0; i < 3; i++) {
      expect((await call(b!, "/api/commerce/payment-invoices", m.key)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The revoke runs in this process, a third app process on the same PostgreSQL, through the
    // function behind the dashboard's Revoke button.
    expect(await revokeApiKey(suite.db, m.merchantId, m.keyId)).toBe(true);
    const elapsed = await timeUntil(async () => (await call(b!, "/api/commerce/payment-invoices", m.key)).status === 401, 5_000);
    console.log(`revoked key refused by the other instance after ${elapsed.toFixed(0)} ms`);
    expect(elapsed).toBeLessThan(1_000);
    expect((await call(a!, "/api/commerce/payment-invoices", m.key)).status).toBe(401);
  });

  it("a connection disabled on one instance no longer receives invoices created on the other within a second", async () => {
    const m = await seedMerchant(suite.db);
    const first = await seedConnection(suite.db, m.merchantId, "provider-b", "h2h", "B first");
    const second = await seedConnection(suite.db, m.merchantId, "provider-b", "h2h", "B second");
    const routedTo = async () => {
      const created = await call(b!, "/api/commerce/payment-invoices", m.key, { method: "POST", body: paymentBody(m.account) });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      return created.json.data!.relationships!.connection!.data!.id;
    };
    expect(await routedTo()).toBe(first);
    expect(await routedTo()).toBe(first);

    const disabled = await call(a!, `/api/connections/${first}`, m.key, {
      method: "PATCH",
      body: { data: { type: "connection", id: first, attributes: { enabled: false } } },
    });
    expect(disabled.status, JSON.stringify(disabled.json)).toBe(200);
    const elapsed = await timeUntil(async () => (await routedTo()) === second, 5_000, 100);
    console.log(`disabled connection skipped by the other instance after ${elapsed.toFixed(0)} ms`);
    expect(elapsed).toBeLessThan(1_000);
  });
});

describe("rate limits across instances", () => {
  /**
   * Sends `count` requests, `spread` over the instances in turn, 10 at a time; counts the answers
   * that were served (`served`) and the 429s.
   */
  async function burst(send: (instance: Instance) => Promise<number>, instances: Instance[], count: number, served: number) {
    const started = performance.now();
    const statuses: number[] = [];
    for (let sent = 0; sent < count; sent += 10) {
      const wave = Array.from({ length: Math.min(10, count - sent) }, (_, i) => send(instances[(sent + i) % instances.length]!));
      statuses.push(...(await Promise.all(wave)));
    }
    const seconds = (performance.now() - started) / 1000;
    return { ok: statuses.filter((s) => s === served).length, limited: statuses.filter((s) => s === 429).length, seconds };
  }

  function expectOneLimit(runs: Awaited<ReturnType<typeof burst>>[]) {
    for (const run of runs) {
      expect(run.ok + run.limited).toBe(2 * BURST);
      // The burst, plus what refilled while the requests were being served.
      expect(run.ok).toBeGreaterThanOrEqual(BURST);
      expect(run.ok).toBeLessThanOrEqual(BURST + Math.ceil(run.seconds * PER_SECOND));
    }
  }

  it("a key bursting across both instances is refused at the same total as on one instance", async () => {
    const list = (key: string) => (instance: Instance) => call(instance, "/api/commerce/payment-invoices", key).then((answer) => answer.status);
    const one = await burst(list((await seedMerchant(suite.db)).key), [a!], 2 * BURST, 200);
    const both = await burst(list((await seedMerchant(suite.db)).key), [a!, b!], 2 * BURST, 200);
    console.log(
      `burst of ${2 * BURST}: one instance ${one.ok} accepted in ${one.seconds.toFixed(2)} s, both instances ${both.ok} accepted in ${both.seconds.toFixed(2)} s`,
    );
    expectOneLimit([one, both]);
  });

  it("a client address flooding a public route across both instances is refused at the same total as on one instance", async () => {
    // Provider callbacks, the hosted page and the API's 404 share this limit per client address.
    const probe = (address: string) => (instance: Instance) =>
      fetch(`${instance.url}/api/no-such-route`, { headers: { "X-Forwarded-For": address } }).then(async (answer) => {
        await answer.arrayBuffer();
        return answer.status;
      });
    const one = await burst(probe(`192.0.2.${1 + (randomBytes(1)[0]! % 120)}`), [a!], 2 * BURST, 404);
    const both = await burst(probe(`192.0.2.${130 + (randomBytes(1)[0]! % 120)}`), [a!, b!], 2 * BURST, 404);
    console.log(
      `public burst of ${2 * BURST}: one instance ${one.ok} served in ${one.seconds.toFixed(2)} s, both instances ${both.ok} served in ${both.seconds.toFixed(2)} s`,
    );
    expectOneLimit([one, both]);
  });

  it("sign-in failures on both instances add up to one limit per account and address; the owner elsewhere is not refused", async () => {
    const m = await seedMerchant(suite.db);
    const address = `203.0.113.${1 + (randomBytes(1)[0]! % 250)}`;
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) outcomes.push(await signIn(i % 2 ? b! : a!, m.email, "wrong-password-1", address));
    expect(outcomes).toEqual(Array(10).fill("credentials"));
    // Five failures on each instance: ten for this account from this address, so even the right password is refused from it, on either.
    expect(await signIn(a!, m.email, m.password, address)).toBe("too_many_attempts");
    expect(await signIn(b!, m.email, m.password, address)).toBe("too_many_attempts");
    // Failures sent from one address never lock the owner out at another.
    expect(await signIn(b!, m.email, m.password, `198.51.100.${1 + (randomBytes(1)[0]! % 250)}`)).toBe("signed-in");
  });
});

/** next-auth's credentials sign-in over HTTP, as the sign-in form posts it: "signed-in" or the error code. */
async function signIn(instance: Instance, email: string, password: string, address: string): Promise<string> {
  const csrf = await fetch(`${instance.url}/api/auth/csrf`, { headers: { "X-Forwarded-For": address } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const answer = await fetch(`${instance.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", "X-Forwarded-For": address },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${instance.url}/home` }),
  });
  if (answer.status === 429) return ((await answer.json()) as { errors: { code: string }[] }).errors[0]!.code;
  const location = answer.headers.get("location") ?? "";
  const error = location ? new URL(location, instance.url).searchParams : undefined;
  if (error?.get("error")) return error.get("code") ?? error.get("error")!;
  if (answer.headers.getSetCookie().some((c) => c.includes("session-token="))) return "signed-in";
  return `unexpected ${answer.status} ${location}`;
}

describe("job workers on both instances share the work", () => {
  async function startReceiver(secret: () => string) {
    const deliveries: { eventId: string; verified: boolean }[] = [];
    const server: Server = createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk) => (raw += chunk));
      req.on("end", () => {
        const body = JSON.parse(raw) as { meta: { event_id: string } };
        deliveries.push({ eventId: body.meta.event_id, verified: verifyWebhook(raw, String(req.headers["x-signature"] ?? ""), secret()) });
        res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      });
    });
    const url = await new Promise<string>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`)),
    );
    return { deliveries, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  async function count(query: ReturnType<typeof sql>): Promise<number> {
    const result = await suite.db.execute(query);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
    return Number(rows[0]!.n);
  }
  const queuedJobs = (name: string) =>
    count(sql`select count(*)::int as n from ${sql.identifier(jobsSchema)}.job where name = ${name} and state in ('created', 'retry', 'active')`);
  /** Jobs of `name` that are running or due now (not those scheduled for later). */
  const dueJobs = (name: string) =>
    count(
      sql`select count(*)::int as n from ${sql.identifier(jobsSchema)}.job where name = ${name} and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
    );
  const completedJobs = (name: string, invoiceId: string) =>
    count(
      sql`select count(*)::int as n from ${sql.identifier(jobsSchema)}.job where name = ${name} and state = 'completed' and data->>'invoiceId' = ${invoiceId}`,
    );

  it("each webhook event is delivered once", async () => {
    const m = await seedMerchant(suite.db);
    await seedConnection(suite.db, m.merchantId, "provider-a", "h2h", "A payouts");
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const saved = await createEndpoint(suite.db, m.merchantId, { url: receiver.url, description: "", enabled: true, allEvents: true, eventTypes: [] });
      if (!saved.ok) throw new Error(JSON.stringify(saved.problems));
      secret = saved.value.secret;
      const payouts = 8;
      const created = await Promise.all(
        Array.from({ length: payouts }, (_, i) =>
          call(i % 2 ? b! : a!, "/api/commerce/payout-invoices", m.key, { method: "POST", body: payoutBody(m.account) }),
        ),
      );
      for (const answer of created) expect([answer.status, answer.json.data?.attributes.status]).toEqual([201, "processed"]);

      // Two status changes per payout (processing, processed): one event each.
      await timeUntil(async () => new Set(receiver.deliveries.map((d) => d.eventId)).size >= 2 * payouts, 60_000, 200);
      await timeUntil(async () => (await queuedJobs("webhook-deliver")) === 0, 60_000, 200);
      const events = receiver.deliveries.map((d) => d.eventId);
      console.log(`webhook deliveries: ${events.length} requests for ${new Set(events).size} events`);
      expect(new Set(events).size).toBe(2 * payouts);
      expect(events.length).toBe(2 * payouts);
      expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("each status request for a payment left pending runs once", async () => {
    const m = await seedMerchant(suite.db);
    await seedConnection(suite.db, m.merchantId, "provider-b", "h2h", "B 3-D Secure");
    // The customers' Pay runs in this process (the card lives only in that request's memory); its
    // provider calls go to instance A's sandbox, and the status requests it queues are left to the
    // two instances' workers.
    process.env.APP_URL = a!.url;
    process.env.JOBS_SCHEMA = jobsSchema;
    const payments = 4;
    const ids: string[] = [];
    for (let i = 0; i < payments; i++) {
      const created = await call(i % 2 ? b! : a!, "/api/commerce/payment-invoices", m.key, { method: "POST", body: paymentBody(m.account) });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const paid = await payHostedInvoice(suite.db, created.json.data!.id, {
        number: "4000 0000 0000 3220",
        expiry: "12/30",
        cvc: "737",
        holder: "Ada Lovelace",
      });
      expect(paid.ok, JSON.stringify(paid)).toBe(true);
      ids.push(created.json.data!.id);
    }
    const statusRequests = async (invoiceId: string) => {
      const [attempt] = await suite.db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, invoiceId));
      expect(attempt?.status).toBe("pending");
      return (attempt!.exchanges as { method?: string; url?: string }[]).filter((x) => x.method === "GET" && String(x.url).includes("/charges/")).length;
    };
    // The first status request is due 10 s after each attempt; wait until every invoice has had it
    // and no status request is running or due, then count what the provider was asked.
    await timeUntil(async () => (await Promise.all(ids.map(statusRequests))).every((n) => n >= 1), 90_000, 500);
    await timeUntil(async () => (await dueJobs("invoice-reconcile")) === 0, 30_000, 200);
    const asked = await Promise.all(ids.map(statusRequests));
    const ran = await Promise.all(ids.map((id) => completedJobs("invoice-reconcile", id)));
    console.log(`status requests per pending payment: ${asked.join(", ")} (reconcile jobs completed: ${ran.join(", ")})`);
    expect(asked).toEqual(Array(payments).fill(1));
    expect(ran).toEqual(Array(payments).fill(1));
  });
});
