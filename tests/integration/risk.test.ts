import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import * as payRoute from "@/app/(public)/pay/[id]/pay/route";
import * as invoicesRoute from "@/app/api/commerce/payment-invoices/route";
import * as blocklistRoute from "@/app/api/risk/blocklist/route";
import * as blocklistEntryRoute from "@/app/api/risk/blocklist/[id]/route";
import { createApiKey } from "@/lib/api-keys/queries";
import { credentialsKey } from "@/lib/vault/vault-key";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { invoiceAttempts, riskAttempts, webhookEvents } from "@/lib/db/schema";
import { openPostgres, type Db } from "@/lib/db/client";
import { isLuhnValid } from "@/lib/cards/card-number";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { addBlocklistEntry, saveRiskSettings } from "@/lib/risk/store";
import { DEFAULT_RISK_SETTINGS, RISK_REFUSAL } from "@/lib/risk/settings";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { logger } from "@/lib/logger";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";

/**
 * The risk rules at the hosted page's Pay and at creation: a card-testing run is stopped within the
 * default limits and no provider call follows the limit; a real customer's retries pass; every
 * refusal is on the invoice with its rule, and a `risk.blocked` event tells the merchant.
 */
const t = setUpTestDb();
serveSandboxesAsAppUrl();
beforeEach(() => {
  resetRateLimits();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const actor = { label: "risk test" };
const SUCCEEDS = "4242 4242 4242 4242";
const DECLINED = "4000 0000 0000 0002";

/** The n-th different card the sandbox declines (its last four are 0002), Luhn-valid. */
function decliningCard(n: number): string {
  const middle = String(n).padStart(5, "0");
  for (let digit = 0; digit < 10; digit += 1) {
    const number = `400000${middle}${digit}0002`;
    if (isLuhnValid(number)) return number;
  }
  throw new Error("no Luhn digit");
}

async function merchantWithB(): Promise<InvoiceMerchant> {
  const m = await invoiceMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
  return m;
}

async function invoiceOf(m: InvoiceMerchant, email?: string): Promise<string> {
  const example = email ? PAYMENT_EXAMPLES["B: EUR with customer"] : PAYMENT_EXAMPLES["B: EUR without customer"];
  const body = bodyFor(example, m.account, { reference_id: newReference() });
  if (email) (body.data.attributes.customer as Record<string, unknown>).email = email;
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice.id;
}

async function pay(id: string, number: string, address: string): Promise<{ ok: boolean; message?: string }> {
  const response = await payRoute.POST(
    new Request(`http://localhost/pay/${id}/pay`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify({ number, expiry: "12/30", cvc: "123", holder: "Card Tester" }),
    }),
    { params: Promise.resolve({ id }) },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { ok: boolean; message?: string };
}

async function providerCalls(ids: string[]): Promise<number> {
  return (await t.db.select({ id: invoiceAttempts.id }).from(invoiceAttempts).where(inArray(invoiceAttempts.invoiceId, ids))).length;
}

async function blockedRules(id: string): Promise<string[]> {
  const rows = await t.db
    .select({ rule: riskAttempts.rule })
    .from(riskAttempts)
    .where(and(eq(riskAttempts.invoiceId, id), eq(riskAttempts.outcome, "blocked")));
  return rows.map((row) => row.rule ?? "");
}

describe("card testing at the hosted page", () => {
  it("on one invoice from many loopback addresses: three different cards reach the provider, then every Pay is refused without a provider call", async () => {
    const m = await merchantWithB();
    const id = await invoiceOf(m);
    const answers = [];
    for (let n = 1; n <= 8; n += 1) answers.push(await pay(id, decliningCard(n), `127.0.${n}.${n * 3}`));
    expect(answers.slice(0, 3).every((answer) => answer.ok)).toBe(true);
    for (const answer of answers.slice(3)) expect(answer).toMatchObject({ ok: false, message: RISK_REFUSAL });
    expect(await providerCalls([id])).toBe(DEFAULT_RISK_SETTINGS.invoiceCards);
    expect(await blockedRules(id)).toEqual(Array(5).fill("invoice_cards"));
    // The merchant is told each time, with the rule and the would-be amount.
    const events = await t.db
      .select({ risk: webhookEvents.risk })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.invoiceId, id), eq(webhookEvents.type, "risk.blocked")));
    expect(events).toHaveLength(5);
    expect(events[0]!.risk).toMatchObject({ rule: "invoice_cards", amount: "100.50", currency: "EUR", card: expect.stringMatching(/^Visa •••• 0002$/) });
    expect(JSON.stringify(events)).not.toContain(decliningCard(4));
  });

  it("across invoices from one address: the fifth different card is refused, and no card number is stored", async () => {
    const m = await merchantWithB();
    const ids = await Promise.all(Array.from({ length: 8 }, () => invoiceOf(m)));
    const answers = [];
    for (const [n, id] of ids.entries()) answers.push(await pay(id, decliningCard(100 + n), "127.0.0.9"));
    expect(answers.map((answer) => answer.ok)).toEqual([true, true, true, true, false, false, false, false]);
    expect(await providerCalls(ids)).toBe(DEFAULT_RISK_SETTINGS.addressCards);
    expect(await blockedRules(ids[4]!)).toEqual(["address_cards"]);
    const stored = JSON.stringify(await t.db.select().from(riskAttempts).where(inArray(riskAttempts.invoiceId, ids)));
    for (let n = 100; n < 108; n += 1) expect(stored).not.toContain(decliningCard(n));
    expect(stored).not.toContain("127.0.0.9");
  });

  it("simultaneous Pays from one address on many invoices cannot all pass: the limit holds under concurrency", async () => {
    const m = await merchantWithB();
    const ids = await Promise.all(Array.from({ length: 12 }, () => invoiceOf(m)));
    await Promise.all(ids.map((id, n) => pay(id, decliningCard(200 + n), "127.0.0.77")));
    expect(await providerCalls(ids)).toBe(DEFAULT_RISK_SETTINGS.addressCards);
  });

  it("a real customer's retries pass: one card declined twice, then another card succeeds", async () => {
    const m = await merchantWithB();
    const id = await invoiceOf(m, "real@example.com");
    expect(await pay(id, DECLINED, "198.51.100.7")).toMatchObject({ ok: true });
    expect(await pay(id, DECLINED, "198.51.100.7")).toMatchObject({ ok: true });
    const paid = (await pay(id, SUCCEEDS, "198.51.100.7")) as { ok: boolean; invoice?: { outcome: { kind: string } } };
    expect(paid.ok).toBe(true);
    expect(paid.invoice?.outcome.kind).toBe("paid");
    expect(await blockedRules(id)).toEqual([]);
  });

  it("an owner's tighter limit applies at once: two declines per address", async () => {
    const m = await merchantWithB();
    await saveRiskSettings(t.db, { merchantId: m.merchantId, actor }, { ...DEFAULT_RISK_SETTINGS, addressDeclines: 2 });
    const ids = await Promise.all(Array.from({ length: 3 }, () => invoiceOf(m)));
    for (const id of ids) await pay(id, decliningCard(500), "203.0.113.50");
    expect(await providerCalls(ids)).toBe(2);
    expect(await blockedRules(ids[2]!)).toEqual(["address_declines"]);
  });

  it("in test mode the sandbox's published test cards are never counted: a developer may decline with them again and again", async () => {
    const m = await merchantWithB();
    const ids = await Promise.all(Array.from({ length: DEFAULT_RISK_SETTINGS.cardDeclines + 2 }, () => invoiceOf(m)));
    for (const id of ids) expect(await pay(id, DECLINED, "127.0.0.1")).toMatchObject({ ok: true });
    expect(await providerCalls(ids)).toBe(ids.length);
  });
});

describe("blocklists", () => {
  it("a blocked e-mail, BIN or address range stops Pay before any provider, with its rule on the invoice", async () => {
    const m = await merchantWithB();
    const scope = { merchantId: m.merchantId, actor, mode: "test" as const };
    const cases: [Parameters<typeof addBlocklistEntry>[2], string, string, string][] = [
      [{ kind: "email", value: "Fraud@Example.com", note: "" }, SUCCEEDS, "192.0.2.1", "blocklist_email"],
      [{ kind: "bin", value: "555555", note: "" }, "5555 5555 5555 4444", "192.0.2.2", "blocklist_bin"],
      [{ kind: "address", value: "10.9.0.0/16", note: "" }, SUCCEEDS, "10.9.8.7", "blocklist_address"],
    ];
    for (const [entry, card, address, rule] of cases) {
      // Created before the entry (a create naming a listed e-mail is itself refused, below).
      const id = await invoiceOf(m, rule === "blocklist_email" ? "fraud@example.com" : undefined);
      await addBlocklistEntry(t.db, scope, entry);
      expect(await pay(id, card, address)).toMatchObject({ ok: false, message: RISK_REFUSAL });
      expect(await providerCalls([id])).toBe(0);
      expect(await blockedRules(id)).toEqual([rule]);
    }
  });

  it("a card blocked from its invoice is refused on any invoice of the merchant, from any address", async () => {
    const m = await merchantWithB();
    const first = await invoiceOf(m);
    expect(await pay(first, DECLINED, "192.0.2.40")).toMatchObject({ ok: true });
    const [row] = await t.db
      .select({ fingerprint: riskAttempts.cardFingerprint, label: riskAttempts.cardLabel })
      .from(riskAttempts)
      .where(eq(riskAttempts.invoiceId, first));
    expect(row!.label).toBe("Visa •••• 0002");
    await addBlocklistEntry(t.db, { merchantId: m.merchantId, actor, mode: "test" }, { kind: "card", value: row!.fingerprint!, label: row!.label!, note: "" });
    const second = await invoiceOf(m);
    expect(await pay(second, DECLINED, "192.0.2.41")).toMatchObject({ ok: false, message: RISK_REFUSAL });
    expect(await blockedRules(second)).toEqual(["blocklist_card"]);
    // Another card on the same invoice still goes through: the block names the card, not the customer.
    expect(await pay(second, SUCCEEDS, "192.0.2.41")).toMatchObject({ ok: true });
  });

  it("a live-mode entry does not touch test payments (test and live apart), and another merchant's list never applies", async () => {
    const m = await merchantWithB();
    const other = await merchantWithB();
    await addBlocklistEntry(t.db, { merchantId: m.merchantId, actor, mode: "live" }, { kind: "email", value: "apart@example.com", note: "" });
    await addBlocklistEntry(t.db, { merchantId: other.merchantId, actor, mode: "test" }, { kind: "email", value: "apart@example.com", note: "" });
    const id = await invoiceOf(m, "apart@example.com");
    expect(await pay(id, SUCCEEDS, "192.0.2.30")).toMatchObject({ ok: true });
  });

  it("a create whose customer e-mail or country is blocked is refused 422 naming the rule and the field", async () => {
    const m = await merchantWithB();
    await addBlocklistEntry(t.db, { merchantId: m.merchantId, actor, mode: "test" }, { kind: "country", value: "gb", note: "" });
    const body = bodyFor(PAYMENT_EXAMPLES["B: EUR with customer"], m.account, { reference_id: newReference() });
    const response = await invoicesRoute.POST(
      new Request("http://localhost/api/commerce/payment-invoices", {
        method: "POST",
        headers: { authorization: `Bearer ${m.key}`, "content-type": "application/vnd.api+json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(422);
    const answer = (await response.json()) as { errors: { code: string; detail: string; source?: { pointer?: string } }[] };
    expect(answer.errors[0]).toMatchObject({ code: "blocked_by_risk", source: { pointer: "/data/attributes/customer/address/country" } });
    expect(answer.errors[0]!.detail).toContain("blocklist_country");
  });
});

/** Another app instance: on PostgreSQL a second connection pool; PGlite has one process, so the same handle. */
async function secondInstance(): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  return t.kind === "postgres" && url ? openPostgres(url, { max: 2 }) : { db: t.db, close: async () => {} };
}

describe("several instances share the counters", () => {
  it("Pays alternating between two instances (on PostgreSQL a second connection pool; PGlite has one process) count against the same limits", async () => {
    const second = await secondInstance();
    try {
      const m = await merchantWithB();
      const ids = await Promise.all(Array.from({ length: 6 }, () => invoiceOf(m)));
      const instances: Db[] = [t.db, second.db];
      for (const [n, id] of ids.entries()) {
        await payHostedInvoice(
          instances[n % 2]!,
          id,
          { number: decliningCard(300 + n), expiry: "12/30", cvc: "123", holder: "Tester" },
          { address: "127.0.0.88" },
        );
      }
      expect(await providerCalls(ids)).toBe(DEFAULT_RISK_SETTINGS.addressCards);
    } finally {
      await second.close();
    }
  });
});

describe("a change of the rules reaches every instance's next Pay", () => {
  it("a blocklist entry and lower limits saved through one instance stop the very next Pay on the other, which had just read the rules", async () => {
    const second = await secondInstance();
    try {
      const m = await merchantWithB();
      const [first, listed, lowered] = await Promise.all([invoiceOf(m), invoiceOf(m), invoiceOf(m)]);
      // The hosted page's Pay runs on this test's instance.
      expect(await pay(first, decliningCard(400), "127.0.9.1")).toMatchObject({ ok: true });
      await addBlocklistEntry(second.db, { merchantId: m.merchantId, actor, mode: "test" }, { kind: "address", value: "127.0.9.0/24", note: "" });
      expect(await pay(listed, decliningCard(401), "127.0.9.2")).toMatchObject({ ok: false, message: RISK_REFUSAL });
      expect(await blockedRules(listed)).toEqual(["blocklist_address"]);
      // A limit of one decline per address: the first decline from a new address passes, the next Pay is refused.
      await saveRiskSettings(second.db, { merchantId: m.merchantId, actor }, { ...DEFAULT_RISK_SETTINGS, addressDeclines: 1 });
      expect(await pay(lowered, decliningCard(402), "127.0.10.1")).toMatchObject({ ok: true });
      expect(await pay(lowered, decliningCard(403), "127.0.10.1")).toMatchObject({ ok: false, message: RISK_REFUSAL });
      expect(await blockedRules(lowered)).toEqual(["address_declines"]);
      expect(await providerCalls([first, listed, lowered])).toBe(2);
    } finally {
      await second.close();
    }
  });
});

describe("/api/risk/blocklist", () => {
  const call = (method: string, path: string, key: string, body?: unknown) =>
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, accept: "application/vnd.api+json", ...(body ? { "content-type": "application/vnd.api+json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const entryParams = (id: string) => ({ params: Promise.resolve({ id }) });
  const none = { params: Promise.resolve({}) };

  it("adds, lists, reads and removes the key's mode's entries; bad input is a 422 naming the field; another merchant's entry is 404", async () => {
    const m = await merchantWithB();
    const other = await merchantWithB();
    const added = await blocklistRoute.POST(
      call("POST", "/api/risk/blocklist", m.key, { data: { type: "blocklist-entries", attributes: { kind: "bin", value: "411111", note: "tester" } } }),
      none,
    );
    expect(added.status).toBe(201);
    const entry = ((await added.json()) as { data: { id: string; attributes: Record<string, unknown> } }).data;
    expect(entry.attributes).toMatchObject({ kind: "bin", value: "411111", note: "tester", test_mode: true });

    const listed = (await (await blocklistRoute.GET(call("GET", "/api/risk/blocklist", m.key), none)).json()) as { data: { id: string }[] };
    expect(listed.data.map((row) => row.id)).toEqual([entry.id]);
    expect((await blocklistEntryRoute.GET(call("GET", `/api/risk/blocklist/${entry.id}`, m.key), entryParams(entry.id))).status).toBe(200);
    // Another merchant's key, and this merchant's live key, do not find it.
    expect((await blocklistEntryRoute.GET(call("GET", `/api/risk/blocklist/${entry.id}`, other.key), entryParams(entry.id))).status).toBe(404);
    expect((await blocklistEntryRoute.DELETE(call("DELETE", `/api/risk/blocklist/${entry.id}`, other.key), entryParams(entry.id))).status).toBe(404);
    const liveKey = (await createApiKey(t.db, { merchantId: m.merchantId, name: "live", mode: "live" })).key;
    expect((await blocklistEntryRoute.GET(call("GET", `/api/risk/blocklist/${entry.id}`, liveKey), entryParams(entry.id))).status).toBe(404);

    const bad = await blocklistRoute.POST(
      call("POST", "/api/risk/blocklist", m.key, { data: { type: "blocklist-entries", attributes: { kind: "address", value: "300.1.1.1/99" } } }),
      none,
    );
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { errors: { source: { pointer: string } }[] }).errors[0]!.source.pointer).toBe("/data/attributes/value");
    const unknownKind = await blocklistRoute.POST(
      call("POST", "/api/risk/blocklist", m.key, { data: { type: "blocklist-entries", attributes: { kind: "card", value: "4242" } } }),
      none,
    );
    expect(unknownKind.status).toBe(422);

    expect((await blocklistEntryRoute.DELETE(call("DELETE", `/api/risk/blocklist/${entry.id}`, m.key), entryParams(entry.id))).status).toBe(204);
    expect((await blocklistEntryRoute.GET(call("GET", `/api/risk/blocklist/${entry.id}`, m.key), entryParams(entry.id))).status).toBe(404);
  });
});
