import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { SANDBOX_CALLER_HEADER, sandboxCallerToken } from "@/lib/sandbox/self-call";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as callbackRoute } from "@/app/api/callbacks/[slug]/[connectionId]/route";
import * as sandboxRoute from "@/app/sandbox/[slug]/[[...path]]/route";
import { completeThreeDsAction } from "@/lib/actions/complete-three-ds";
import { describeHealth } from "@/lib/actions/test-connection-message";
import { overrideRateLimits, resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { createConnection } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { listDashboardAttempts } from "@/lib/invoices/read/invoice-attempts";
import { logger } from "@/lib/logger";
import { listAttempts } from "@/lib/processing/attempts";
import { payWithCard, resumeAfterRedirect } from "@/lib/processing/engine";
import type { ConnectionKind, CredentialValues } from "@/lib/providers";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { getProviderServer } from "@/lib/providers/server/servers";
import { setSandboxFault } from "@/lib/sandbox/faults";
import { sendWebResponse, toWebRequest } from "@/server/node-bridge";
import { createAttributes, parseCreate, scopeFor } from "./helpers/connection-fixtures";
import { setUpTestDb, unique } from "./helpers/db";
import { invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { runAllJobs } from "./helpers/jobs";
import { adapterContext, paymentInstruction } from "./helpers/sandbox-http";

/**
 * The sandboxes keep their accounts apart. Merchants share public identifiers (a merchant ID, a
 * terminal id, a shop login, a public key: the sample credentials even give every test connection
 * the same one), and the sandbox tells them apart by their secrets. Another merchant who copies the
 * victim's identifier into its own test connection, with its own secret, and repeats the victim's
 * attempt id as its idempotency key gets a record of its own: never the victim's order, its
 * reference or its 3-D Secure challenge, and the victim's payment goes on as if nothing happened.
 *
 * Everything runs over HTTP through the app's own sandbox route (so its per-address limit applies
 * too) and the provider callback route, with this file's server as APP_URL.
 */
const t = setUpTestDb();

let server: Server | undefined;
let origin = "";
const previousAppUrl = process.env.APP_URL;

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const request = await toWebRequest(req, origin);
      const [, first, second, ...rest] = new URL(request.url).pathname.split("/");
      const decoded = rest.map(decodeURIComponent);
      const handler = sandboxRoute[request.method as keyof typeof sandboxRoute];
      const response =
        first === "sandbox" && second && handler
          ? await handler(request, { params: Promise.resolve({ slug: decodeURIComponent(second), path: decoded }) })
          : first === "api" && second === "callbacks" && decoded.length === 2 && request.method === "POST"
            ? await callbackRoute(request, { params: Promise.resolve({ slug: decoded[0]!, connectionId: decoded[1]! }) })
            : new Response("not found", { status: 404 });
      await sendWebResponse(response, res);
    })().catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  process.env.APP_URL = origin;
});
afterAll(async () => {
  if (previousAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previousAppUrl;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});
beforeEach(() => {
  resetRateLimits();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => {
  overrideRateLimits(undefined);
  vi.restoreAllMocks();
});

const THREE_DS_CARD = "4000000000003220";
const APPROVED_CARD = "4242424242424242";

async function connectWith(merchantId: string, provider: string, kind: ConnectionKind, credentials: CredentialValues): Promise<string> {
  const created = await createConnection(scopeFor(t.db, merchantId, credentialsKey()), parseCreate(createAttributes(provider, kind, "test", { credentials })));
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
  return created.value.id;
}

async function exampleInvoice(m: InvoiceMerchant, template: string) {
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  // Paid on the hosted page with a card (Provider F's example would bypass it).
  body.data.attributes.options = { allow_partially: false };
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice;
}

/** The customer's Pass / Fail on the 3-D Secure page, through its server action (which ends in a redirect). */
async function answerChallenge(provider: string, reference: string, answer: "pass" | "fail"): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ provider, reference, answer, return: `${origin}/pay/done` })) form.set(name, value);
  await completeThreeDsAction(form).catch((error: unknown) => {
    if (!String((error as { digest?: unknown }).digest ?? "").startsWith("NEXT_REDIRECT")) throw error;
  });
}

/**
 * Per provider: the public identifier another merchant can copy, and for A and E the key pair
 * fields (the sample credentials share one pair, which would make the two merchants one account).
 */
const CASES = [
  { provider: "provider-a", kind: "provider_account", template: "a-payment", shared: "merchant_id", keys: ["payment_key", "private_key"], threeDs: true },
  { provider: "provider-b", kind: "h2h", template: "b-payment", shared: "terminal_id", keys: null, threeDs: true },
  { provider: "provider-c", kind: "provider_account", template: "c-payment-amd", shared: "shop_login", keys: null, threeDs: true },
  { provider: "provider-d", kind: "h2h", template: "d-payment", shared: "merchant_id", keys: null, threeDs: false },
  { provider: "provider-e", kind: "h2h", template: "e-payment", shared: "merchant_id", keys: ["public_key", "private_key"], threeDs: true },
  { provider: "provider-f", kind: "h2h", template: "f-payment", shared: "public_key", keys: null, threeDs: true },
] as const;

const text = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

/** The other merchant's own secrets: fresh sample secrets and, where the kind has one, its own key pair. */
function ownSecrets(provider: string, kind: ConnectionKind, keys: readonly [string, string] | null): CredentialValues {
  const credentials = sampleCredentials(provider, kind, "test");
  if (!keys) return credentials;
  const pair = generateKeyPair();
  return { ...credentials, [keys[0]]: pair.publicKeyPem, [keys[1]]: pair.privateKeyPem };
}

describe("a replayed idempotency key from another sandbox account", () => {
  it.each(CASES)(
    "$provider: the other merchant gets a record of its own, never the victim's; the victim's payment is untouched",
    async ({ provider, kind, template, shared, keys, threeDs }) => {
      // The victim pays through the engine; with 3-D Secure its payment waits for the customer.
      const victim = await invoiceMerchant(t.db);
      const victimCredentials = sampleCredentials(provider, kind, "test");
      const victimConnection = await connectWith(victim.merchantId, provider, kind, victimCredentials);
      const invoice = await exampleInvoice(victim, template);
      const paid = await payWithCard(t.db, invoice.id, {
        number: threeDs ? THREE_DS_CARD : APPROVED_CARD,
        expiryMonth: 12,
        expiryYear: 2030,
        holder: "Vera Victim",
        cvc: "123",
      });
      expect(paid).toMatchObject(threeDs ? { kind: "redirect" } : { kind: "finished", invoice: { status: "processed" } });
      const [victimAttempt] = await listAttempts(t.db, invoice.id);
      const victimReference = victimAttempt!.providerReference!;
      expect(victimAttempt).toMatchObject({ connectionId: victimConnection, providerReference: expect.any(String) });
      const statusBefore = (await listAttempts(t.db, invoice.id)).map((attempt) => attempt.status);

      // The other merchant: the victim's public identifier, its own secret, its own test connection.
      const attacker = await invoiceMerchant(t.db);
      const attackerCredentials = { ...ownSecrets(provider, kind, keys), [shared]: victimCredentials[shared] };
      await connectWith(attacker.merchantId, provider, kind, attackerCredentials);
      const adapter = getProviderServer(provider)!.adapter;
      const attackerContext = adapterContext(`${origin}/sandbox/${provider}`, provider, kind, attackerCredentials);
      const instruction = {
        ...paymentInstruction(THREE_DS_CARD, { amount: "10.00", currency: invoice.currency, service: invoice.service }),
        idempotencyKey: victimAttempt!.idempotencyKey,
      };
      const replay = await adapter.createPayment(attackerContext, instruction);
      const seen = text([replay, attackerContext.exchanges.list()]);
      expect(seen).not.toContain(victimReference);
      // Not a conflict either: the key is the attacker's own, so its sandbox made it a fresh record.
      expect("providerReference" in replay && replay.providerReference).toEqual(expect.any(String));

      // Its status request by the same key reads its own record, not the victim's.
      const status = await adapter.getStatus(attackerContext, { idempotencyKey: victimAttempt!.idempotencyKey, direction: "payment" });
      expect(text(status)).not.toContain(victimReference);

      // Failing the only challenge it was given fails its own record; its callbacks reach no invoice of the victim's.
      if ("redirectUrl" in replay && replay.redirectUrl) {
        const [reference] = new URL(replay.redirectUrl).pathname.split("/").slice(-1).map(decodeURIComponent);
        expect(reference).not.toBe(victimReference);
        await answerChallenge(provider, reference!, "fail");
      }
      await runAllJobs(t.db, { name: "sandbox-callback" });
      expect((await listAttempts(t.db, invoice.id)).map((attempt) => attempt.status)).toEqual(statusBefore);

      // The victim's own status request still finds its own payment, and its customer still decides it.
      const victimContext = adapterContext(`${origin}/sandbox/${provider}`, provider, kind, victimCredentials);
      const victimStatus = await adapter.getStatus(victimContext, { idempotencyKey: victimAttempt!.idempotencyKey, direction: "payment" });
      expect(victimStatus).toMatchObject({ providerReference: victimReference });
      if (threeDs) {
        await answerChallenge(provider, victimReference, "pass");
        expect(await resumeAfterRedirect(t.db, invoice.id)).toMatchObject({ status: "processed", resolution: "ok" });
      }
    },
  );
});

describe("the invoice page's sandbox record", () => {
  it("is the one the attempt's own connection made: another account's record under the same key is not shown", async () => {
    // The victim's sandbox refuses before acting (a 5xx fault), so its attempt left no record there.
    const victim = await invoiceMerchant(t.db);
    const victimCredentials = sampleCredentials("provider-b", "h2h", "test");
    const victimConnection = await connectWith(victim.merchantId, "provider-b", "h2h", victimCredentials);
    await setSandboxFault(t.db, { id: victimConnection, provider: "provider-b" }, "server_error");
    const invoice = await exampleInvoice(victim, "b-payment");
    await payWithCard(t.db, invoice.id, { number: APPROVED_CARD, expiryMonth: 12, expiryYear: 2030, holder: "Vera Victim", cvc: "123" });
    const [victimAttempt] = await listAttempts(t.db, invoice.id);
    expect(victimAttempt).toMatchObject({ connectionId: victimConnection, providerReference: null });

    // The other merchant's request under the victim's attempt id is recorded, as its own.
    const attackerCredentials = { ...sampleCredentials("provider-b", "h2h", "test"), terminal_id: victimCredentials.terminal_id };
    await connectWith((await invoiceMerchant(t.db)).merchantId, "provider-b", "h2h", attackerCredentials);
    const attackerContext = adapterContext(`${origin}/sandbox/provider-b`, "provider-b", "h2h", attackerCredentials);
    const replay = await getProviderServer("provider-b")!.adapter.createPayment(attackerContext, {
      ...paymentInstruction(APPROVED_CARD, { amount: "10.00", currency: invoice.currency, service: invoice.service }),
      customer: { name: "Mallory Other" },
      idempotencyKey: victimAttempt!.idempotencyKey,
    });
    expect(replay).toMatchObject({ kind: "succeeded", providerReference: expect.any(String) });

    const [shown] = await listDashboardAttempts(t.db, victim.merchantId, { id: invoice.id, currency: invoice.currency });
    expect(shown).toMatchObject({ id: victimAttempt!.id, sandboxRecord: null });
    expect(text(shown)).not.toContain("Mallory Other");
  });
});

describe("Provider C's sandbox sign-in", () => {
  const whoami = (login: string, password: string, from = "198.51.100.20") =>
    sandboxRoute.GET(
      new Request(`${origin}/sandbox/provider-c/shop/whoami`, {
        headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`, "x-forwarded-for": from },
      }),
      { params: Promise.resolve({ slug: "provider-c", path: ["shop", "whoami"] }) },
    );

  it("answers one identical refusal for a login it does not know and for a wrong password", async () => {
    const merchant = await invoiceMerchant(t.db);
    const login = unique("shop");
    const credentials: CredentialValues = { ...sampleCredentials("provider-c", "provider_account", "test"), shop_login: login };
    await connectWith(merchant.merchantId, "provider-c", "provider_account", credentials);
    expect((await whoami(login, String(credentials.shop_password))).status).toBe(200);

    const read = async (answer: Response) => ({ status: answer.status, challenge: answer.headers.get("www-authenticate"), body: await answer.text() });
    const unknown = await read(await whoami(unique("nobody"), "some-password-1"));
    const wrong = await read(await whoami(login, "some-password-1"));
    expect(unknown.status).toBe(401);
    expect(unknown.challenge).toContain("Basic");
    expect(wrong).toEqual(unknown);
  });
});

/**
 * Per provider: the account's public identifier, an identifier no account has, the wrong secrets
 * (a secret, an API key, a private key of another pair) that make its signature or sign-in fail,
 * and the credentials Test connection then names together.
 */
const SIGN_INS: readonly {
  provider: string;
  kind: ConnectionKind;
  keys: readonly [string, string] | null;
  account: string;
  unknown: () => string;
  wrong: () => CredentialValues[];
  named: string;
}[] = [
  {
    provider: "provider-a",
    kind: "provider_account",
    keys: ["payment_key", "private_key"],
    account: "merchant_id",
    unknown: () => unique("A-NOBODY"),
    wrong: () => [{ private_key: generateKeyPair().privateKeyPem }],
    named: "Merchant ID and Private key",
  },
  {
    provider: "provider-b",
    kind: "h2h",
    keys: null,
    account: "terminal_id",
    unknown: () => unique("TERM-NOBODY"),
    wrong: () => [{ secret_key: `wrong-${randomBytes(16).toString("hex")}` }],
    named: "Terminal ID and Secret key",
  },
  {
    provider: "provider-c",
    kind: "provider_account",
    keys: null,
    account: "shop_login",
    unknown: () => unique("nobody"),
    wrong: () => [{ shop_password: `wrong-${randomBytes(16).toString("hex")}` }],
    named: "Shop login and Shop password",
  },
  {
    // The Api-Key is sent as it is: a right key must not show itself by a refusal that moves on to the signature.
    provider: "provider-d",
    kind: "h2h",
    keys: null,
    account: "merchant_id",
    unknown: () => unique("D-NOBODY"),
    wrong: () => [
      { api_key: `wrong-${randomBytes(16).toString("hex")}` },
      { secret_key: `wrong-${randomBytes(16).toString("hex")}` },
      { api_key: `wrong-${randomBytes(16).toString("hex")}`, secret_key: `wrong-${randomBytes(16).toString("hex")}` },
    ],
    named: "Merchant ID, API key and Secret key",
  },
  {
    provider: "provider-e",
    kind: "h2h",
    keys: ["public_key", "private_key"],
    account: "merchant_id",
    unknown: () => unique("E-NOBODY"),
    wrong: () => [{ private_key: generateKeyPair().privateKeyPem }],
    named: "Merchant ID and Private key",
  },
  {
    provider: "provider-f",
    kind: "h2h",
    keys: null,
    account: "public_key",
    unknown: () => `dev_pub_${randomUUID()}`,
    wrong: () => [{ secret_key: `dev_sec_${randomBytes(24).toString("base64url")}` }],
    named: "Public key and Secret key",
  },
];

describe("every sandbox's sign-in", () => {
  it.each(SIGN_INS)(
    "$provider: an unknown $account and a wrong secret get one byte-identical refusal, and Test connection names $named together",
    async ({ provider, kind, keys, account, unknown, wrong, named }) => {
      const merchant = await invoiceMerchant(t.db);
      const credentials = ownSecrets(provider, kind, keys);
      await connectWith(merchant.merchantId, provider, kind, credentials);

      // Every answer the adapter's health check gets, as it came over the wire.
      const answers: { status: number; body: string }[] = [];
      const realFetch = globalThis.fetch;
      vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const response = await realFetch(input, init);
        answers.push({ status: response.status, body: await response.clone().text() });
        return response;
      });
      const adapter = getProviderServer(provider)!.adapter;
      const check = async (changes: CredentialValues) => {
        const before = answers.length;
        const result = await adapter.healthCheck(adapterContext(`${origin}/sandbox/${provider}`, provider, kind, { ...credentials, ...changes }));
        expect(answers.length).toBe(before + 1);
        return { result, answer: answers.at(-1)! };
      };

      expect((await check({})).result).toMatchObject({ kind: "ok" });
      const refusals = [await check({ [account]: unknown() })];
      for (const changes of wrong()) refusals.push(await check(changes));
      const [first, ...others] = refusals;
      expect(first!.answer.status).toBe(401);
      for (const { answer } of others) expect(answer).toEqual(first!.answer);
      for (const { result } of refusals) {
        expect(result).toMatchObject({ kind: "credentials_refused" });
        expect(result).not.toHaveProperty("field");
        expect(describeHealth(result, provider, kind).message).toBe(`Credentials refused — check ${named}`);
      }
    },
  );
});

describe("the sandboxes' limit per client address", () => {
  it("answers a flood from one address 429 with Retry-After, like every public route, and serves other addresses", async () => {
    overrideRateLimits({ key: { perSecond: 0.1, burst: 3 }, merchant: { perSecond: 0.1, burst: 3 } });
    const guess = (from: string) =>
      sandboxRoute.POST(
        new Request(`${origin}/sandbox/provider-c/shop/orders`, {
          method: "POST",
          headers: { authorization: `Basic ${Buffer.from("demo-shop:guess").toString("base64")}`, "x-forwarded-for": from, "content-type": "application/json" },
          body: "{}",
        }),
        { params: Promise.resolve({ slug: "provider-c", path: ["shop", "orders"] }) },
      );
    const flood = "203.0.113.77";
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i += 1) {
      last = await guess(flood);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await guess("198.51.100.99")).status).toBe(401);
  });

  it("does not count this server's own calls (they carry its token) against that limit; a forged token counts", async () => {
    overrideRateLimits({ key: { perSecond: 0.1, burst: 3 }, merchant: { perSecond: 0.1, burst: 3 } });
    const call = (from: string, token: string) =>
      sandboxRoute.POST(
        new Request(`${origin}/sandbox/provider-c/shop/orders`, {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from("demo-shop:guess").toString("base64")}`,
            "x-forwarded-for": from,
            "content-type": "application/json",
            [SANDBOX_CALLER_HEADER]: token,
          },
          body: "{}",
        }),
        { params: Promise.resolve({ slug: "provider-c", path: ["shop", "orders"] }) },
      );
    const own: number[] = [];
    for (let i = 0; i < 6; i += 1) own.push((await call("203.0.113.78", sandboxCallerToken())).status);
    expect(own).toEqual([401, 401, 401, 401, 401, 401]);
    const forged: number[] = [];
    for (let i = 0; i < 5; i += 1) forged.push((await call("203.0.113.79", `${sandboxCallerToken().slice(0, -2)}xx`)).status);
    expect(forged).toEqual([401, 401, 401, 429, 429]);
  });
});
