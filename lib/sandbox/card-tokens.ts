import "server-only";
import { randomBytes } from "node:crypto";
import { inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections } from "@/lib/db/schema";
import { cardBrandOf } from "@/lib/cards/bin";
import { findRecordByReference, saveRecord, updateRecord, type SandboxRecord } from "./records";

/**
 * The sandboxes' card vault (saved cards): a provider that keeps cards stores the card
 * behind a token of its own making, one record per token (operation "card_token", the token as its
 * reference) of the account (test-mode connection) that asked. Only that account may charge or
 * forget it; a forgotten token stays, "detached", so a later charge is told so. The stored card is
 * masked like every record (6 + last 4): the last four decide a test card's outcome (./cards.ts),
 * so a saved card behaves as it did when typed.
 */
const CARD_TOKEN_OPERATION = "card_token";

export type KeptCard = {
  token: string;
  /** Masked (6 + last 4): what decideCard reads. */
  cardNumber: string;
  brand: string | null;
  lastFour: string;
  expiryMonth: number;
  expiryYear: number;
  holder: string;
  detached: boolean;
};

/** A new token in the provider's own style (`prefix` names it: "atok_", "B-CARD-", …). */
export function newCardToken(prefix: string): string {
  return `${prefix}${randomBytes(12).toString("hex")}`;
}

/** Keeps the card behind `token` for the account; the card number is masked as it is stored. */
export async function keepCard(
  db: Db,
  input: {
    provider: string;
    connectionId: string;
    token: string;
    card: { number: string; expiryMonth: number; expiryYear: number; holder: string };
    paymentReference: string;
  },
): Promise<void> {
  const digits = input.card.number.replace(/\D/g, "");
  await saveRecord(db, {
    provider: input.provider,
    connectionId: input.connectionId,
    operation: CARD_TOKEN_OPERATION,
    reference: input.token,
    status: "active",
    details: {
      card: digits,
      brand: cardBrandOf(digits),
      lastFour: digits.slice(-4),
      expiryMonth: input.card.expiryMonth,
      expiryYear: input.card.expiryYear,
      holder: input.card.holder,
      paymentReference: input.paymentReference,
    },
  });
}

function keptCardOf(record: SandboxRecord): KeptCard {
  const details = record.details as Record<string, unknown>;
  return {
    token: record.reference,
    cardNumber: String(details.card ?? ""),
    brand: typeof details.brand === "string" ? details.brand : null,
    lastFour: String(details.lastFour ?? ""),
    expiryMonth: Number(details.expiryMonth ?? 0),
    expiryYear: Number(details.expiryYear ?? 0),
    holder: String(details.holder ?? ""),
    detached: record.status === "detached",
  };
}

/**
 * The card behind `token` for this account: the provider keeps cards per merchant, so any of the
 * same merchant's accounts at this provider may charge it (a saved-card charge cascades among
 * them); another merchant's token, or none, is undefined.
 */
export async function findKeptCard(db: Db, provider: string, connectionId: string, token: string): Promise<KeptCard | undefined> {
  const record = await findRecordByReference(db, provider, token);
  if (!record || record.operation !== CARD_TOKEN_OPERATION || !record.connectionId) return undefined;
  if (record.connectionId !== connectionId && !(await sameMerchant(db, record.connectionId, connectionId))) return undefined;
  return keptCardOf(record);
}

async function sameMerchant(db: Db, first: string, second: string): Promise<boolean> {
  const rows = await db
    .select({ merchantId: connections.merchantId })
    .from(connections)
    .where(inArray(connections.id, [first, second]));
  return rows.length === 2 && rows[0]!.merchantId === rows[1]!.merchantId;
}

/** Forgets the account's token: "unknown" when it is not the account's. A second call finds it forgotten already. */
export async function forgetCard(db: Db, provider: string, connectionId: string, token: string): Promise<"forgotten" | "unknown"> {
  const kept = await findKeptCard(db, provider, connectionId, token);
  if (!kept) return "unknown";
  if (!kept.detached) await updateRecord(db, provider, kept.token, { status: "detached" });
  return "forgotten";
}

/** What a payment record says of the card it saved (`savedToken` and the card in its details), for the provider to word. */
export function savedCardOfRecord(
  record: SandboxRecord,
): { token: string; brand: string | null; lastFour: string; expiryMonth: number; expiryYear: number } | undefined {
  const details = record.details as Record<string, unknown>;
  if (typeof details.savedToken !== "string") return undefined;
  const card = String(details.card ?? "").replace(/\D/g, "");
  return {
    token: details.savedToken,
    brand: cardBrandOf(card),
    lastFour: card.slice(-4),
    expiryMonth: Number(details.savedExpiryMonth ?? 0),
    expiryYear: Number(details.savedExpiryYear ?? 0),
  };
}

/** The details a payment record keeps when it saves the card (read back by savedCardOfRecord). */
export function savedCardDetails(token: string | undefined, card: { expiryMonth: number; expiryYear: number }): Record<string, unknown> {
  return token ? { savedToken: token, savedExpiryMonth: card.expiryMonth, savedExpiryYear: card.expiryYear } : {};
}
