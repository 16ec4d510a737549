import { providerCan } from "@/lib/providers/capabilities";
import { flushLog } from "@/lib/logger";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { GET as GET_PAYMENT_ATTEMPTS } from "@/app/api/commerce/payment-invoices/[id]/attempts/route";
import { POST as POST_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import { GET as GET_PAYOUT } from "@/app/api/commerce/payout-invoices/[id]/route";
import { GET as GET_PAYOUT_ATTEMPTS } from "@/app/api/commerce/payout-invoices/[id]/attempts/route";
import { GET as LIST_METHODS } from "@/app/api/commerce/payment-methods/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { decryptSecret } from "@/lib/vault";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { findHostedInvoice } from "@/lib/pay/hosted-invoice";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import type { ConnectionKind } from "@/lib/providers";
import { TEST_CARDS } from "@/lib/sandbox/cards";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference } from "./helpers/invoice-fixtures";
import { startSandboxServer } from "./helpers/sandbox-server";
import { send } from "./helpers/send";

/**
 * Every
 * provider's hosted-page payment with every test card and an A payout with a full card number
 * (auto_process, through the API), all through the engine and the real sandboxes over HTTP, with
 * the real logger writing (LOG_LEVEL=info). Then the captured log text, every row of every table
 * and every API answer are searched for the full numbers and for the CVC under its field names.
 */
const t = setUpTestDb();
const CVC = "737";
const CVC_FIELD = new RegExp(`(cvc|cvv|cvc2|security_?code)\\W{0,4}${CVC}\\b`, "i");
const PAYOUT_CARD = "5555555555554444";
const FULL_NUMBERS = [...TEST_CARDS.map((card) => card.number.replace(/\D/g, "")), PAYOUT_CARD];

const PAYMENTS: readonly { provider: string; kind: ConnectionKind; template: string }[] = [
  { provider: "provider-a", kind: "provider_account", template: "a-payment" },
  { provider: "provider-b", kind: "h2h", template: "b-payment" },
  { provider: "provider-c", kind: "provider_account", template: "c-payment-eur" },
  { provider: "provider-d", kind: "h2h", template: "d-payment" },
  { provider: "provider-e", kind: "h2h", template: "e-payment" },
  { provider: "provider-f", kind: "h2h", template: "f-payment" },
];

let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
const previous = { appUrl: process.env.APP_URL, logLevel: process.env.LOG_LEVEL };
let logged: string[] = [];
beforeAll(async () => {
  sandbox = await startSandboxServer();
  process.env.APP_URL = sandbox.baseUrl;
});
afterAll(async () => {
  for (const [name, value] of [
    ["APP_URL", previous.appUrl],
    ["LOG_LEVEL", previous.logLevel],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await sandbox.close();
});
beforeEach(() => {
  resetRateLimits();
  process.env.LOG_LEVEL = "info";
  logged = [];
  const write = process.stderr.write.bind(process.stderr);
  // Captured and still written: the logger itself runs as in production.
  vi.spyOn(process.stderr, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
    logged.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"));
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write);
});
afterEach(() => vi.restoreAllMocks());

/** PGlite answers `{ rows }`, postgres.js the rows themselves. */
function rowsOf<T>(answer: unknown): T[] {
  return Array.isArray(answer) ? (answer as T[]) : (answer as { rows: T[] }).rows;
}

async function dumpDatabase(except: readonly string[] = []): Promise<string> {
  const tables = rowsOf<{ table_name: string }>(
    await t.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`),
  );
  expect(tables.map((row) => row.table_name)).toEqual(expect.arrayContaining(["invoices", "invoice_attempts", "payout_parts", "sandbox_records"]));
  const dump: string[] = [];
  for (const { table_name: table } of tables.filter((row) => !except.includes(row.table_name))) {
    const rows = rowsOf<{ json: string }>(await t.db.execute(sql.raw(`select row_to_json(t)::text as json from "${table}" t`)));
    dump.push(`${table}: ${rows.map((row) => row.json).join("\n")}`);
  }
  return dump.join("\n");
}

function expectNoCardData(where: string, text: string) {
  for (const number of FULL_NUMBERS) expect(text, `${where} holds ${number}`).not.toContain(number);
  expect(text, `${where} holds the CVC`).not.toMatch(CVC_FIELD);
}

describe("no full card number or CVC after a run of every provider and test card", () => {
  it("is nowhere in the logs, the database or the API answers", async () => {
    const answers: string[] = [];
    const merchantIds: string[] = [];
    for (const { provider, kind, template } of PAYMENTS) {
      const m = await invoiceMerchant(t.db);
      merchantIds.push(m.merchantId);
      await connect(t.db, m.merchantId, provider, kind, { vaultKey: credentialsKey() });
      for (const card of TEST_CARDS) {
        const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() }) as {
          data: { attributes: Record<string, unknown> };
        };
        const options = (body.data.attributes.options ?? {}) as Record<string, unknown>;
        delete options.bypass_hpp;
        // Every payment whose provider keeps cards asks to save its card: the tokens the providers answer are searched for below too.
        const customer = (body.data.attributes.customer ?? {}) as Record<string, unknown>;
        const placed =
          (body.data as { customer?: Record<string, unknown> }).customer ??
          (body.data.attributes.gateway_options as { customer?: Record<string, unknown> } | undefined)?.customer;
        if (placed) placed.reference_id = "leak-customer";
        else body.data.attributes.customer = { ...customer, reference_id: "leak-customer" };
        if (providerCan(provider, "card_tokens"))
          body.data.attributes.gateway_options = { ...(body.data.attributes.gateway_options as object), cardgate: { tokenize: "" } };
        else delete (body.data.attributes.gateway_options as { cardgate?: unknown } | undefined)?.cardgate;
        const created = await send<{ id: string }>(POST_PAYMENT, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body });
        expect(created.status, created.text).toBe(201);
        const id = created.json.data.id;
        const hosted = await findHostedInvoice(t.db, id);
        const form = { number: card.number, expiry: "12/30", holder: "Ada Lovelace", ...(hosted?.takesCvc ? { cvc: CVC } : {}) };
        const paid = await payHostedInvoice(t.db, id, form);
        expect(paid.ok, `${provider} ${card.number}: ${JSON.stringify(paid)}`).toBe(true);
        answers.push(JSON.stringify(paid));
        answers.push((await send(GET_PAYMENT, { id }, { path: `/api/commerce/payment-invoices/${id}`, key: m.key })).text);
        answers.push((await send(GET_PAYMENT_ATTEMPTS, { id }, { path: `/api/commerce/payment-invoices/${id}/attempts`, key: m.key })).text);
      }
      answers.push((await send(LIST_METHODS, {}, { path: "/api/commerce/payment-methods?filter[customer_reference]=leak-customer", key: m.key })).text);
    }

    const m = await invoiceMerchant(t.db);
    merchantIds.push(m.merchantId);
    await connect(t.db, m.merchantId, "provider-a", "h2h", { vaultKey: credentialsKey() });
    const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = { auto_process: true };
    body.data.attributes.fields = { card_number: PAYOUT_CARD };
    const payout = await send<{ id: string; attributes: Record<string, unknown> }>(
      POST_PAYOUT,
      {},
      { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body },
    );
    expect(payout.status, payout.text).toBe(201);
    expect(payout.json.data.attributes.status).toBe("processed");
    const id = payout.json.data.id;
    answers.push(payout.text);
    answers.push((await send(GET_PAYOUT, { id }, { path: `/api/commerce/payout-invoices/${id}`, key: m.key })).text);
    answers.push((await send(GET_PAYOUT_ATTEMPTS, { id }, { path: `/api/commerce/payout-invoices/${id}/attempts`, key: m.key })).text);

    // Every payment of this test reached its provider's sandbox: the searched places are not empty
    // (counted for this test's merchants only: on PostgreSQL other files share the database).
    const tried = rowsOf<{ n: number }>(
      await t.db.execute(sql`select count(*)::int as n from invoice_attempts a join invoices i on i.id = a.invoice_id where i.merchant_id in ${merchantIds}`),
    );
    expect(tried[0]!.n).toBeGreaterThanOrEqual(PAYMENTS.length * TEST_CARDS.length + 1);
    const reached = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`select count(distinct s.provider)::int as n from sandbox_records s join connections c on c.id = s.connection_id where c.merchant_id in ${merchantIds}`,
      ),
    );
    expect(reached[0]!.n).toBe(PAYMENTS.length);

    flushLog();
    const log = logged.join("");
    expect(log).toContain('"level":"info"');
    expectNoCardData("the log", log);
    const database = await dumpDatabase();
    expect(database).toContain("424242******4242");
    expectNoCardData("the database", database);
    expectNoCardData("the API answers", answers.join("\n"));

    // The saved cards' tokens (A, B, C, D and F keep cards): never in a log, an answer, or any table but the
    // sandboxes' own memory (the provider's side) and payment_methods, where the vault seals them.
    const sealed = rowsOf<{ token_sealed: string }>(await t.db.execute(sql`select token_sealed from payment_methods where merchant_id in ${merchantIds}`));
    const tokens = sealed.map((row) => decryptSecret(row.token_sealed, credentialsKey()));
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    const outsideTheSandboxes = await dumpDatabase(["sandbox_records"]);
    for (const token of tokens) {
      expect(log, "the log holds a token").not.toContain(token);
      expect(answers.join("\n"), "an API answer holds a token").not.toContain(token);
      expect(outsideTheSandboxes, "a table holds a token in clear").not.toContain(token);
    }
  }, 180_000);
});
