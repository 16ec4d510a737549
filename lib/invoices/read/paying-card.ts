import { desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoiceAttempts } from "@/lib/db/schema";
import { summarizeThreeDs, type ThreeDsSummary } from "@/lib/invoices/three-ds";
import { CARD_BRAND_LABELS, CARD_BRANDS, type CardBrand } from "@/lib/cards/bin";
import type { InvoiceRow } from "../store";

/**
 * What a merchant sees of the card a payment was paid with: never its number (the hosted page
 * dropped it after the payment request), only what was kept of it when the request took the
 * invoice (brand, last four, issuing country), and the 3-D Secure step of its latest attempt.
 */
export type PayingCard = {
  brand: string | null;
  lastFour: string;
  /** ISO 3166-1 alpha-2, and its English name. */
  country: { code: string; name: string } | null;
  threeDs: ThreeDsSummary;
};

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

function countryOf(code: string | null): PayingCard["country"] {
  if (!code) return null;
  let name = code;
  try {
    name = regionNames.of(code) ?? code;
  } catch {
    // An unknown code shows as it is.
  }
  return { code, name };
}

const isBrand = (value: string | null): value is CardBrand => value !== null && (CARD_BRANDS as readonly string[]).includes(value);

/** Null for payouts and for payments no card has paid here yet. */
export async function readPayingCard(
  db: Db,
  invoice: Pick<InvoiceRow, "id" | "direction" | "cardLastFour" | "cardBrand" | "cardCountry">,
): Promise<PayingCard | null> {
  if (invoice.direction !== "payment" || !invoice.cardLastFour) return null;
  const [latest] = await db
    .select({ threeDs: invoiceAttempts.threeDs })
    .from(invoiceAttempts)
    .where(eq(invoiceAttempts.invoiceId, invoice.id))
    .orderBy(desc(invoiceAttempts.seq))
    .limit(1);
  return {
    brand: isBrand(invoice.cardBrand) ? CARD_BRAND_LABELS[invoice.cardBrand] : null,
    lastFour: invoice.cardLastFour,
    country: countryOf(invoice.cardCountry),
    threeDs: summarizeThreeDs(latest?.threeDs ?? null),
  };
}
