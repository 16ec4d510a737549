import "server-only";
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections, invoiceAttempts, invoices, paymentMethods } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { recordMerchantEvent, snapshotInvoice } from "@/lib/invoices/events";
import { queueEventDelivery } from "@/lib/invoices/status";
import type { InvoiceRow } from "@/lib/invoices/store";
import { asksToTokenize, customerReferenceOf } from "@/lib/invoices/contract/saved-cards";
import type { SavedCard } from "@/lib/providers/kit/adapter";
import { providerCan } from "@/lib/providers/capabilities";
import { encryptSecret } from "@/lib/vault";
import { credentialsKey } from "@/lib/vault/vault-key";
import { logger } from "@/lib/logger";
import { isSafeText } from "@/lib/text-safety";

/**
 * Saved cards: the payment methods a merchant's payments saved. A payment method is
 * written once, when a payment that asked for it (gateway_options.cardgate.tokenize and a customer
 * reference) succeeds with a token from its provider, in the transaction that links it to the
 * invoice and records `payment_method.created`. Every read names the merchant and the mode, so
 * another merchant's method, or the other mode's, is never found (404, and never charged).
 */
type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/** A payment method as lists and pages show it: never the token (sealed or not). */
export type PaymentMethodView = Omit<PaymentMethodRow, "tokenSealed"> & {
  /** The holding connection's label, and whether it can still be charged (not deleted). */
  connectionLabel: string | null;
  connectionDeleted: boolean;
};

export const PAYMENT_METHOD_EVENT_TYPES = ["payment_method.created", "payment_method.detached"] as const;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const VIEW_COLUMNS = {
  id: paymentMethods.id,
  merchantId: paymentMethods.merchantId,
  testMode: paymentMethods.testMode,
  customerReference: paymentMethods.customerReference,
  brand: paymentMethods.brand,
  lastFour: paymentMethods.lastFour,
  expiryMonth: paymentMethods.expiryMonth,
  expiryYear: paymentMethods.expiryYear,
  provider: paymentMethods.provider,
  connectionId: paymentMethods.connectionId,
  sourceInvoiceId: paymentMethods.sourceInvoiceId,
  detachedAt: paymentMethods.detachedAt,
  createdAt: paymentMethods.createdAt,
  updatedAt: paymentMethods.updatedAt,
  connectionLabel: connections.label,
  connectionDeletedAt: connections.deletedAt,
};

type Selected = { [K in keyof typeof VIEW_COLUMNS]: unknown };

function viewOf(row: Selected): PaymentMethodView {
  const { connectionDeletedAt, connectionLabel, ...rest } = row as Omit<PaymentMethodView, "connectionLabel" | "connectionDeleted"> & {
    connectionLabel: string | null;
    connectionDeletedAt: Date | null;
  };
  return { ...rest, connectionLabel, connectionDeleted: connectionDeletedAt !== null };
}

/** The payment method snapshot an event keeps (no token). */
function snapshotPaymentMethod(view: PaymentMethodView): Record<string, unknown> {
  return Object.fromEntries(Object.entries(view).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
}

/** Whether an invoice's payment asked to save its card and can: tokenize, a customer reference, a provider that keeps cards. */
export function paymentSavesCard(invoice: Pick<InvoiceRow, "direction" | "gatewayOptions" | "customer" | "paymentMethodId">): boolean {
  return (
    invoice.direction === "payment" &&
    invoice.paymentMethodId === null &&
    asksToTokenize(invoice.gatewayOptions) &&
    customerReferenceOf(invoice.customer) !== undefined
  );
}

/**
 * Saves the card a succeeded payment's provider kept, once per invoice: the token sealed, the card
 * as shown (brand, last four, expiry), the connection of the attempt that took the payment; the
 * invoice linked; `payment_method.created` recorded, all in one transaction. A second call (a
 * status request and a callback both settling) finds it saved and does nothing.
 */
export async function saveCardOfPayment(db: Db, invoice: InvoiceRow, card: SavedCard): Promise<PaymentMethodView | undefined> {
  if (!paymentSavesCard(invoice)) return undefined;
  const [attempt] = await db
    .select({ connectionId: invoiceAttempts.connectionId, provider: connections.provider })
    .from(invoiceAttempts)
    .innerJoin(connections, eq(connections.id, invoiceAttempts.connectionId))
    .where(eq(invoiceAttempts.invoiceId, invoice.id))
    .orderBy(desc(invoiceAttempts.seq))
    .limit(1);
  if (!attempt || !providerCan(attempt.provider, "card_tokens")) return undefined;
  const customerReference = customerReferenceOf(invoice.customer)!;
  if (!isSafeText(card.token) || !/^\d{4}$/.test(card.lastFour)) {
    logger.warn("saved card not stored: the provider's token or card is unreadable", { invoiceId: invoice.id });
    return undefined;
  }
  const id = newId("pm");
  const saved = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(paymentMethods)
      .values({
        id,
        merchantId: invoice.merchantId,
        testMode: invoice.testMode,
        customerReference,
        brand: card.brand,
        lastFour: card.lastFour,
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
        provider: attempt.provider,
        connectionId: attempt.connectionId,
        tokenSealed: encryptSecret(card.token, credentialsKey()),
        sourceInvoiceId: invoice.id,
      })
      .onConflictDoNothing()
      .returning({ id: paymentMethods.id });
    if (!inserted) return undefined;
    await tx.update(invoices).set({ paymentMethodId: id }).where(eq(invoices.id, invoice.id));
    const view = await readView(tx, invoice.merchantId, invoice.testMode, id);
    const [row] = await tx.select().from(invoices).where(eq(invoices.id, invoice.id));
    const event = await recordPaymentMethodEvent(tx, view!, "payment_method.created", row as InvoiceRow);
    return { view: view!, event };
  });
  if (!saved) return undefined;
  await queueEventDelivery(db, invoice.id, saved.event);
  return saved.view;
}

async function recordPaymentMethodEvent(tx: Tx, view: PaymentMethodView, type: (typeof PAYMENT_METHOD_EVENT_TYPES)[number], invoice?: InvoiceRow) {
  return recordMerchantEvent(tx, {
    merchantId: view.merchantId,
    type,
    invoiceId: invoice?.id ?? null,
    invoice: invoice ? snapshotInvoice(invoice) : null,
    paymentMethod: snapshotPaymentMethod(view),
  });
}

async function readView(db: Db | Tx, merchantId: string, testMode: boolean, id: string): Promise<PaymentMethodView | undefined> {
  if (!isSafeText(id)) return undefined;
  const [row] = await db
    .select(VIEW_COLUMNS)
    .from(paymentMethods)
    .leftJoin(connections, eq(connections.id, paymentMethods.connectionId))
    .where(and(eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.testMode, testMode), eq(paymentMethods.id, id)));
  return row ? viewOf(row) : undefined;
}

/** One payment method of the merchant in the mode; another merchant's or mode's is undefined. */
export function findPaymentMethod(db: Db, merchantId: string, mode: "test" | "live", id: string): Promise<PaymentMethodView | undefined> {
  return readView(db, merchantId, mode === "test", id);
}

export type PaymentMethodCursor = { createdAt: string; id: string };

export type PaymentMethodPage = { methods: PaymentMethodView[]; nextCursor: string | null };

function encodePaymentMethodCursor(view: Pick<PaymentMethodView, "createdAt" | "id">): string {
  return Buffer.from(JSON.stringify([view.createdAt.toISOString(), view.id])).toString("base64url");
}

export function decodePaymentMethodCursor(value: string): PaymentMethodCursor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [createdAt, id] = parsed as unknown[];
    if (typeof createdAt !== "string" || Number.isNaN(Date.parse(createdAt)) || typeof id !== "string" || !/^pm_[A-Za-z0-9_-]{1,64}$/.test(id))
      return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

/**
 * A page of the merchant's payment methods in one mode, newest first, optionally of one customer
 * reference: keyset pagination on (created_at, id) as the invoice list, detached ones included
 * (their `detached_at` says so).
 */
export async function listPaymentMethods(
  db: Db,
  merchantId: string,
  filter: { mode: "test" | "live"; customerReference?: string; cursor?: PaymentMethodCursor; pageSize: number; activeOnly?: boolean },
): Promise<PaymentMethodPage> {
  const conditions = [eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.testMode, filter.mode === "test")];
  if (filter.customerReference !== undefined) conditions.push(eq(paymentMethods.customerReference, filter.customerReference));
  if (filter.activeOnly) conditions.push(sql`${paymentMethods.detachedAt} is null`);
  if (filter.cursor) {
    const at = new Date(filter.cursor.createdAt);
    conditions.push(or(lt(paymentMethods.createdAt, at), and(eq(paymentMethods.createdAt, at), lt(paymentMethods.id, filter.cursor.id)))!);
  }
  const rows = await db
    .select(VIEW_COLUMNS)
    .from(paymentMethods)
    .leftJoin(connections, eq(connections.id, paymentMethods.connectionId))
    .where(and(...conditions))
    .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id))
    .limit(filter.pageSize + 1);
  const methods = rows.slice(0, filter.pageSize).map(viewOf);
  const last = methods.at(-1);
  return { methods, nextCursor: rows.length > filter.pageSize && last ? encodePaymentMethodCursor(last) : null };
}

/** Marks the method detached and records `payment_method.detached`, once; a second call returns it as it is. */
export async function markDetached(db: Db, view: PaymentMethodView): Promise<PaymentMethodView> {
  const done = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(paymentMethods)
      .set({ detachedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(paymentMethods.merchantId, view.merchantId), eq(paymentMethods.id, view.id), sql`${paymentMethods.detachedAt} is null`))
      .returning({ id: paymentMethods.id });
    if (!updated) return undefined;
    const now = (await readView(tx, view.merchantId, view.testMode, view.id))!;
    return { view: now, event: await recordPaymentMethodEvent(tx, now, "payment_method.detached") };
  });
  if (!done) return (await readView(db, view.merchantId, view.testMode, view.id)) ?? view;
  await queueEventDelivery(db, null, done.event);
  return done.view;
}

/**
 * The saved cards a connection holds that can still be charged (not detached): what its Delete
 * makes unusable, for the warning before it.
 */
export async function countChargeableCardsOfConnection(db: Db, merchantId: string, connectionId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<string>`count(*)` })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.connectionId, connectionId), sql`${paymentMethods.detachedAt} is null`));
  return Number(row?.count ?? 0);
}

/**
 * The newest card of the merchant in the mode, held by `provider`, that can still be charged (not
 * detached, its connection not deleted): the API reference's saved-card example names it, so Try it
 * sends a charge the API accepts as shown.
 */
export async function newestChargeableCard(db: Db, merchantId: string, mode: "test" | "live", provider: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .innerJoin(connections, eq(connections.id, paymentMethods.connectionId))
    .where(
      and(
        eq(paymentMethods.merchantId, merchantId),
        eq(paymentMethods.testMode, mode === "test"),
        eq(paymentMethods.provider, provider),
        sql`${paymentMethods.detachedAt} is null`,
        sql`${connections.deletedAt} is null`,
      ),
    )
    .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id))
    .limit(1);
  return row?.id;
}
