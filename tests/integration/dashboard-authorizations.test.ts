import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { captureInvoiceAction, voidInvoiceAction } from "@/lib/actions/authorizations";
import { listChargeableCardsAction, removeSavedCardAction } from "@/lib/actions/payment-methods";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { listCustomers, readCustomer, searchCustomers } from "@/lib/dashboard/customers";
import { auditLog, connections, invoices, paymentMethods } from "@/lib/db/schema";
import { readInvoice } from "@/lib/invoices/store";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import { newId } from "@/lib/ids";
import { logger } from "@/lib/logger";
import { addTeamMember } from "@/lib/merchants/team";
import { countChargeableCardsOfConnection } from "@/lib/payment-methods/store";
import { readAuthorizationPanel } from "@/lib/processing/authorization-panel";
import { payWithCard } from "@/lib/processing/engine";
import { encryptSecret } from "@/lib/vault";
import { credentialsKey } from "@/lib/vault/vault-key";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { setUpTestDb, unique } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";
import { send } from "./helpers/send";

/**
 * The dashboard's side of saved cards and authorize/capture, through the server actions the
 * invoice page, the customer page and the composer call: Capture and Void (amounts, refusals in
 * plain words, support members on test payments only, another merchant's payment not found),
 * Remove of a saved card, the composer's card lookup, the Customers read model and the Delete
 * warning's count.
 */
const t = setUpTestDb();
serveSandboxesAsAppUrl();
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };

beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type World = TeamMerchant & { b: { id: string }; financeId: string; readOnlyId: string };

async function world(provider = "provider-b"): Promise<World> {
  const m = await teamMerchant(t.db);
  const b = await connect(t.db, m.merchantId, provider, "h2h", { vaultKey: credentialsKey() });
  const member = async (role: "finance" | "read_only") => {
    const added = await addTeamMember(t.db, m.merchantId, {
      name: role,
      email: `${unique(role.replace("_", "-"))}@example.com`,
      role,
      password: "member-pass-99",
    });
    if (!added.ok) throw new Error("setup: member");
    return added.value.id;
  };
  return { ...m, b, financeId: await member("finance"), readOnlyId: await member("read_only") };
}

/** A payment of flow "authorize" paid through the sandbox: authorized, for `customer`. */
async function authorized(w: World, options: { amount?: string; customer?: string; flow?: string } = {}) {
  const created = await send<{ id: string }>(
    POST_PAYMENT,
    {},
    {
      method: "POST",
      key: w.key,
      path: "/api/commerce/payment-invoices",
      body: bodyFor(EUR, w.account, {
        reference_id: newReference(),
        flow: options.flow ?? "authorize",
        amount: options.amount ?? "100.00",
        options: { allow_partially: false },
        customer: { name: "Ada Lovelace", email: "ada@example.com", reference_id: options.customer ?? "cus-ada" },
      }),
    },
  );
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const id = created.json.data.id;
  const paid = await payWithCard(t.db, id, CARD);
  if (paid.kind === "refused") throw new Error(JSON.stringify(paid.problems));
  return id;
}

const statusOf = async (id: string) => (await readInvoice(t.db, id))!.status;
const key = () => unique("form-key");
const audits = (merchantId: string, action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.merchantId, merchantId), eq(auditLog.action, action)));

async function savedCard(w: World, input: { customer: string; connectionId?: string; testMode?: boolean; lastFour?: string; sourceInvoiceId: string }) {
  const [row] = await t.db
    .insert(paymentMethods)
    .values({
      id: newId("pm"),
      merchantId: w.merchantId,
      testMode: input.testMode ?? true,
      customerReference: input.customer,
      brand: "visa",
      lastFour: input.lastFour ?? "4242",
      expiryMonth: 12,
      expiryYear: 2030,
      provider: "provider-b",
      connectionId: input.connectionId ?? w.b.id,
      tokenSealed: encryptSecret(`btok_${unique("token")}`, credentialsKey()),
      sourceInvoiceId: input.sourceInvoiceId,
    })
    .returning();
  return row!;
}

describe("Capture on the invoice page", () => {
  it("captures part where the provider captures part: partially processed, the amount, an audit row; the page's panel shows it", async () => {
    const w = await world();
    const id = await authorized(w);
    const row = (await getInvoice(t.db, w.merchantId, "payment", id))!;
    const panel = readAuthorizationPanel(row, "owner")!;
    expect(panel).toMatchObject({ status: "authorized", authorizedAmount: "100.00", partialCapture: true, customerReference: "cus-ada", blocked: null });
    expect(new Date(panel.captureBefore!).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    session.userId = w.ownerId;
    const captured = await captureInvoiceAction({ invoiceId: id, requestKey: key(), amount: "60.00" });
    expect(captured).toEqual({ ok: true, data: { status: "partially_processed", amount: "60.00", currency: "EUR", pending: false } });
    expect(await statusOf(id)).toBe("partially_processed");
    expect(await audits(w.merchantId, "authorization.captured")).toMatchObject([{ actorId: w.ownerId, targetId: id }]);
    const after = readAuthorizationPanel((await getInvoice(t.db, w.merchantId, "payment", id))!, "owner")!;
    expect(after).toMatchObject({ status: "partially_processed", capturedAmount: "60.00", captureBefore: null });

    // A second capture is refused in plain words, and nothing moves.
    session.userId = w.ownerId;
    const again = await captureInvoiceAction({ invoiceId: id, requestKey: key(), amount: "10.00" });
    expect(again).toMatchObject({ ok: false, fieldErrors: {} });
    expect(!again.ok && again.message).toMatch(/already captured \(60\.00 EUR\)/);
    expect(await statusOf(id)).toBe("partially_processed");
  });

  it("the same form sent twice (one key) is one capture, answered alike", async () => {
    const w = await world();
    const id = await authorized(w);
    const requestKey = key();
    session.userId = w.ownerId;
    const first = await captureInvoiceAction({ invoiceId: id, requestKey, amount: "100.00" });
    session.userId = w.ownerId;
    const second = await captureInvoiceAction({ invoiceId: id, requestKey, amount: "100.00" });
    expect(first).toMatchObject({ ok: true, data: { status: "processed" } });
    expect(second).toEqual(first);
  });

  it("an amount over the authorization, zero or not an amount lands on the amount field, and nothing is captured", async () => {
    const w = await world();
    const id = await authorized(w);
    for (const [amount, message] of [
      ["100.01", "amount may be at most the authorized 100.00 EUR"],
      ["0", /amount must be (greater|more) than zero/],
      ["ten", /amount/],
    ] as const) {
      session.userId = w.ownerId;
      const result = await captureInvoiceAction({ invoiceId: id, requestKey: key(), amount });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.fieldErrors.amount).toMatch(message);
    }
    session.userId = w.ownerId;
    expect(await captureInvoiceAction({ invoiceId: id, requestKey: key(), amount: "" })).toMatchObject({
      ok: false,
      fieldErrors: { amount: "Enter the amount to capture." },
    });
    expect(await statusOf(id)).toBe("authorized");
  });

  it("where the provider captures only the whole authorization, part is refused on the field", async () => {
    const w = await world();
    const id = await authorized(w);
    // Provider C captures the whole authorization only (lib/providers/provider-c/index.ts): the check comes before any call.
    const c = await connect(t.db, w.merchantId, "provider-c", "h2h", { vaultKey: credentialsKey() });
    await t.db.update(invoices).set({ connectionId: c.id }).where(eq(invoices.id, id));
    expect(readAuthorizationPanel((await getInvoice(t.db, w.merchantId, "payment", id))!, "owner")).toMatchObject({ partialCapture: false });
    session.userId = w.ownerId;
    const result = await captureInvoiceAction({ invoiceId: id, requestKey: key(), amount: "50.00" });
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.fieldErrors.amount).toMatch(/captures only the whole authorization \(100\.00 EUR\)/);
    expect(await statusOf(id)).toBe("authorized");
  });

  it("an authorization that lapsed is refused as voided once the sweep voided it", async () => {
    const w = await world();
    const id = await authorized(w);
    await t.db.update(invoices).set({ status: "voided", resolution: "authorization_expired" }).where(eq(invoices.id, id));
    session.userId = w.ownerId;
    const result = await captureInvoiceAction({ invoiceId: id, requestKey: key(), amount: "100.00" });
    expect(result).toEqual({ ok: false, fieldErrors: {}, message: "This authorization was voided; nothing can be captured." });
  });

  it("a charge (not an authorization) has no Capture: the panel is absent and the action refuses", async () => {
    const w = await world();
    const id = await authorized(w, { flow: "charge" });
    expect(readAuthorizationPanel((await getInvoice(t.db, w.merchantId, "payment", id))!, "owner")).toBeNull();
    session.userId = w.ownerId;
    const result = await captureInvoiceAction({ invoiceId: id, requestKey: key(), amount: "1.00" });
    expect(!result.ok && result.message).toMatch(/was a charge/);
  });
});

describe("Void on the invoice page", () => {
  it("voids: nothing taken, an audit row; a second void is refused in plain words", async () => {
    const w = await world();
    const id = await authorized(w);
    session.userId = w.financeId;
    expect(await voidInvoiceAction({ invoiceId: id, requestKey: key() })).toEqual({
      ok: true,
      data: { status: "voided", amount: null, currency: "EUR", pending: false },
    });
    const row = (await readInvoice(t.db, id))!;
    expect(row).toMatchObject({ status: "voided", processedAmountMinor: null });
    expect(await audits(w.merchantId, "authorization.voided")).toHaveLength(1);
    session.userId = w.financeId;
    expect(await voidInvoiceAction({ invoiceId: id, requestKey: key() })).toEqual({
      ok: false,
      fieldErrors: {},
      message: "This authorization was voided; nothing can be captured.",
    });
    session.userId = w.ownerId;
    const capture = await captureInvoiceAction({ invoiceId: id, requestKey: key(), amount: "1.00" });
    expect(!capture.ok && capture.message).toBe("This authorization was voided; nothing can be captured.");
  });
});

describe("who may capture and void", () => {
  it("support members capture and void test payments only; read-only members neither; another merchant's payment is not found", async () => {
    const w = await world();
    const test = await authorized(w);
    session.userId = w.supportId;
    expect(await captureInvoiceAction({ invoiceId: test, requestKey: key(), amount: "100.00" })).toMatchObject({ ok: true });

    // A live authorization (made live here: a test key cannot create one): refused before anything is sent.
    const live = await authorized(w);
    await t.db.update(invoices).set({ testMode: false }).where(eq(invoices.id, live));
    expect(readAuthorizationPanel((await getInvoice(t.db, w.merchantId, "payment", live))!, "support")).toMatchObject({
      blocked: "Only an owner or a finance member can capture or void a live payment.",
    });
    for (const run of [
      () => captureInvoiceAction({ invoiceId: live, requestKey: key(), amount: "100.00" }),
      () => voidInvoiceAction({ invoiceId: live, requestKey: key() }),
    ]) {
      session.userId = w.supportId;
      const result = await run();
      expect(result).toMatchObject({ ok: false });
      if (!result.ok) expect(result.message).toMatch(/^Support members may (capture|void) test payments only/);
    }
    expect(await statusOf(live)).toBe("authorized");

    session.userId = w.readOnlyId;
    expect(await voidInvoiceAction({ invoiceId: live, requestKey: key() })).toEqual({
      ok: false,
      fieldErrors: {},
      message: "Your role (Read-only) may not capture or void authorizations.",
    });

    const other = await world();
    session.userId = other.ownerId;
    expect(await voidInvoiceAction({ invoiceId: live, requestKey: key() })).toEqual({ ok: false, fieldErrors: {}, message: "This payment does not exist." });
    expect(await statusOf(live)).toBe("authorized");

    session.userId = undefined;
    expect(await voidInvoiceAction({ invoiceId: live, requestKey: key() })).toMatchObject({ ok: false });
    expect(await statusOf(live)).toBe("authorized");
  });
});

describe("saved cards on the customer page and in the composer", () => {
  it("Remove detaches the card once (an audit row), and it is no longer offered; support members remove test cards only", async () => {
    const w = await world();
    const source = await authorized(w, { flow: "charge", customer: "cus-remove" });
    const card = await savedCard(w, { customer: "cus-remove", sourceInvoiceId: source });
    const liveCard = await savedCard(w, {
      customer: "cus-remove",
      sourceInvoiceId: await authorized(w, { flow: "charge" }),
      testMode: false,
      lastFour: "1111",
    });

    session.userId = w.supportId;
    expect(await listChargeableCardsAction({ customerReference: "cus-remove", testMode: true })).toMatchObject({
      ok: true,
      data: { cards: [{ id: card.id, lastFour: "4242", expiry: "12/2030", providerName: expect.any(String) }] },
    });
    session.userId = w.supportId;
    expect(await removeSavedCardAction({ id: liveCard.id })).toEqual({
      ok: false,
      fieldErrors: {},
      message: "Your role (Support) may not remove customers' saved live cards.",
    });
    session.userId = w.supportId;
    expect(await removeSavedCardAction({ id: card.id })).toMatchObject({ ok: true, data: { id: card.id } });
    session.userId = w.supportId;
    expect(await removeSavedCardAction({ id: card.id })).toMatchObject({ ok: true });
    expect(await audits(w.merchantId, "card.removed")).toHaveLength(1);
    const [stored] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.id, card.id));
    expect(stored!.detachedAt).not.toBeNull();
    session.userId = w.supportId;
    expect(await listChargeableCardsAction({ customerReference: "cus-remove", testMode: true })).toEqual({ ok: true, data: { cards: [] } });
    const [live] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.id, liveCard.id));
    expect(live!.detachedAt).toBeNull();

    session.userId = w.readOnlyId;
    expect(await removeSavedCardAction({ id: liveCard.id })).toEqual({
      ok: false,
      fieldErrors: {},
      message: "Your role (Read-only) may not remove saved cards.",
    });
  });

  it("another merchant's card is not found and never listed; live cards only for those who compose live", async () => {
    const w = await world();
    const card = await savedCard(w, { customer: "cus-shared", sourceInvoiceId: await authorized(w, { flow: "charge" }) });
    const other = await world();
    session.userId = other.ownerId;
    expect(await removeSavedCardAction({ id: card.id })).toEqual({ ok: false, fieldErrors: {}, message: "This saved card does not exist." });
    session.userId = other.ownerId;
    expect(await listChargeableCardsAction({ customerReference: "cus-shared", testMode: true })).toEqual({ ok: true, data: { cards: [] } });
    session.userId = w.supportId;
    expect(await listChargeableCardsAction({ customerReference: "cus-shared", testMode: false })).toEqual({
      ok: false,
      fieldErrors: {},
      message: "Your role (Support) may not create live invoices and payment links.",
    });
    session.userId = w.ownerId;
    expect(await listChargeableCardsAction({ customerReference: " ", testMode: true })).toMatchObject({
      ok: false,
      fieldErrors: { customerReference: "Enter the customer's reference_id." },
    });
    const [stored] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.id, card.id));
    expect(stored!.detachedAt).toBeNull();
  });

  it("a deleted connection's cards are unusable: not offered, and the Delete warning counted them before", async () => {
    const w = await world();
    const source = await authorized(w, { flow: "charge", customer: "cus-gone" });
    await savedCard(w, { customer: "cus-gone", sourceInvoiceId: source });
    const detached = await savedCard(w, { customer: "cus-gone", sourceInvoiceId: await authorized(w, { flow: "charge" }), lastFour: "0005" });
    await t.db.update(paymentMethods).set({ detachedAt: new Date() }).where(eq(paymentMethods.id, detached.id));
    expect(await countChargeableCardsOfConnection(t.db, w.merchantId, w.b.id)).toBe(1);
    const other = await world();
    expect(await countChargeableCardsOfConnection(t.db, other.merchantId, w.b.id)).toBe(0);

    await t.db.update(connections).set({ deletedAt: new Date() }).where(eq(connections.id, w.b.id));
    session.userId = w.ownerId;
    expect(await listChargeableCardsAction({ customerReference: "cus-gone", testMode: true })).toEqual({ ok: true, data: { cards: [] } });
    const customer = await readCustomer(t.db, w.merchantId, { mode: "test", reference: "cus-gone" });
    expect(customer!.cards.map((c) => [c.lastFour, c.connectionDeleted, c.detachedAt !== null])).toEqual(
      expect.arrayContaining([
        ["4242", true, false],
        ["0005", true, true],
      ]),
    );
  });
});

describe("the Customers pages' reads", () => {
  it("lists each reference of the mode with its counts and totals, in pages; a customer's page and the search find it; another merchant's are never seen", async () => {
    const w = await world();
    const ada = await authorized(w, { customer: "cus-ada", amount: "100.00" });
    session.userId = w.ownerId;
    await captureInvoiceAction({ invoiceId: ada, requestKey: key(), amount: "40.00" });
    await authorized(w, { customer: "cus-ada", amount: "25.00" });
    await authorized(w, { customer: "cus-bob", flow: "charge", amount: "10.00" });
    await savedCard(w, { customer: "cus-bob", sourceInvoiceId: await authorized(w, { customer: "cus-bob", flow: "charge", amount: "5.00" }) });
    await authorized(w, { customer: "cus-cy", flow: "charge", amount: "1.00" });
    const other = await world();
    await authorized(other, { customer: "cus-ada", flow: "charge" });

    const first = await listCustomers(t.db, w.merchantId, { mode: "test", pageSize: 2 });
    expect(first.customers.map((c) => c.reference)).toEqual(["cus-ada", "cus-bob"]);
    expect(first.customers[0]).toMatchObject({
      invoices: 2,
      cards: 0,
      totals: [{ currency: "EUR", paid: "40.00", refunded: "0.00", held: "25.00" }],
    });
    expect(first.customers[1]).toMatchObject({ invoices: 2, cards: 1, usableCards: 1, totals: [{ currency: "EUR", paid: "15.00" }] });
    const second = await listCustomers(t.db, w.merchantId, { mode: "test", pageSize: 2, after: first.nextCursor! });
    expect(second.customers.map((c) => c.reference)).toEqual(["cus-cy"]);
    expect(second.nextCursor).toBeNull();
    expect((await listCustomers(t.db, w.merchantId, { mode: "live" })).customers).toEqual([]);
    expect((await listCustomers(t.db, w.merchantId, { mode: "test", prefix: "cus-b" })).customers.map((c) => c.reference)).toEqual(["cus-bob"]);
    expect((await listCustomers(t.db, w.merchantId, { mode: "test", prefix: "cus_%" })).customers).toEqual([]);

    const detail = await readCustomer(t.db, w.merchantId, { mode: "test", reference: "cus-ada" });
    expect(detail!.invoices).toHaveLength(2);
    expect(detail!.invoices.map((i) => i.status).sort()).toEqual(["authorized", "partially_processed"]);
    expect(await readCustomer(t.db, w.merchantId, { mode: "live", reference: "cus-ada" })).toBeUndefined();
    expect(await readCustomer(t.db, w.merchantId, { mode: "test", reference: "cus-nobody" })).toBeUndefined();
    const theirs = await readCustomer(t.db, other.merchantId, { mode: "test", reference: "cus-ada" });
    expect(theirs!.invoices).toHaveLength(1);

    expect(await searchCustomers(t.db, w.merchantId, "test", "cus-")).toEqual(["cus-ada", "cus-bob", "cus-cy"]);
    expect(await searchCustomers(t.db, w.merchantId, "test", "cus-b")).toEqual(["cus-bob"]);
    expect(await searchCustomers(t.db, w.merchantId, "live", "cus-")).toEqual([]);
    expect(await searchCustomers(t.db, w.merchantId, "test", "\u0000")).toEqual([]);
  });
});
