/**
 * What routing may know about a card from its first digits (the BIN): the network ("brand") and
 * the issuing country. Isomorphic and pure; it reads at most the first nine digits, so a masked
 * payout number ("400000******0002") works as well as a full one, and nothing here keeps or logs a
 * number.
 *
 * Brands follow the networks' published prefix ranges (Visa 4; Mastercard 51–55 and 2221–2720;
 * American Express 34, 37; Discover 6011, 644–649, 65; JCB 3528–3589; Diners Club 300–305, 36, 38,
 * 39; UnionPay 62; Maestro 50, 56–58, 6304, 6759, 6761–6763).
 *
 * Issuing countries: there is no BIN database in this product. The table below covers the test BINs
 * the sandboxes accept (their outcome is decided by the last four digits, lib/sandbox/cards.ts), so
 * rules on the issuing country can be tried end to end: the usual test cards (4242 4242…, 5555
 * 5555…, 3782 8224…) are United States cards, and the "country" test cards 4000 00CC C… carry the
 * ISO 3166-1 numeric code CCC of their country in digits 7–9 (4000 0082 6… is GB), as widely used
 * test cards do. Any other BIN has no known country: a rule on the issuing country does not match it.
 */

export const CARD_BRANDS = ["visa", "mastercard", "amex", "discover", "jcb", "diners", "unionpay", "maestro"] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const CARD_BRAND_LABELS: Readonly<Record<CardBrand, string>> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  jcb: "JCB",
  diners: "Diners Club",
  unionpay: "UnionPay",
  maestro: "Maestro",
};

/** A stored brand as people read it ("visa" → "Visa"); a brand this table does not know, as stored. */
export function cardBrandLabel(brand: string | null): string | null {
  return brand === null ? null : ((CARD_BRAND_LABELS as Readonly<Record<string, string>>)[brand] ?? brand);
}

const between = (value: number, low: number, high: number) => value >= low && value <= high;

/** The card network from the number's prefix, or null when no published range matches. */
export function cardBrandOf(digits: string): CardBrand | null {
  const n = (length: number) => Number(digits.slice(0, length));
  if (digits.length < 4) return null;
  if (digits.startsWith("4")) return "visa";
  if (between(n(2), 51, 55) || between(n(4), 2221, 2720)) return "mastercard";
  if (n(2) === 34 || n(2) === 37) return "amex";
  if (n(4) === 6011 || between(n(3), 644, 649) || n(2) === 65) return "discover";
  if (between(n(4), 3528, 3589)) return "jcb";
  if (between(n(3), 300, 305) || n(2) === 36 || n(2) === 38 || n(2) === 39) return "diners";
  if (n(2) === 62) return "unionpay";
  if (n(2) === 50 || between(n(2), 56, 58) || n(4) === 6304 || n(4) === 6759 || between(n(4), 6761, 6763)) return "maestro";
  return null;
}

/** ISO 3166-1 numeric → alpha-2, for the countries the test BINs name. */
const NUMERIC_COUNTRIES: Readonly<Record<string, string>> = {
  "036": "AU",
  "040": "AT",
  "056": "BE",
  "076": "BR",
  "124": "CA",
  "203": "CZ",
  "208": "DK",
  "246": "FI",
  "250": "FR",
  "276": "DE",
  "300": "GR",
  "348": "HU",
  "372": "IE",
  "380": "IT",
  "392": "JP",
  "428": "LV",
  "484": "MX",
  "528": "NL",
  "554": "NZ",
  "578": "NO",
  "616": "PL",
  "620": "PT",
  "642": "RO",
  "724": "ES",
  "752": "SE",
  "756": "CH",
  "804": "UA",
  "826": "GB",
  "840": "US",
};

/** The sandboxes' everyday test BINs (six digits) and their documented country. */
const TEST_BINS: Readonly<Record<string, string>> = {
  "424242": "US",
  "400000": "US",
  "555555": "US",
  "520082": "US",
  "222300": "US",
  "378282": "US",
  "371449": "US",
  "601111": "US",
  "353011": "JP",
  "620000": "CN",
};

/** The issuing country (ISO 3166-1 alpha-2) of a test BIN, or null when this product does not know it. */
export function cardCountryOf(digits: string): string | null {
  if (digits.length >= 9 && digits.startsWith("400000")) {
    const country = NUMERIC_COUNTRIES[digits.slice(6, 9)];
    if (country) return country;
  }
  return TEST_BINS[digits.slice(0, 6)] ?? null;
}

export type CardFacts = { brand: CardBrand | null; country: string | null };

/**
 * Brand and country from a card number as sent: full, spaced, or masked with its first six digits
 * kept. Only the leading digits before the first mask character are read. Null without six digits.
 */
export function cardFactsOf(cardNumber: string): CardFacts | null {
  const lead = /^[\d\s-]*/.exec(cardNumber)?.[0]?.replace(/\D/g, "").slice(0, 9) ?? "";
  if (lead.length < 6) return null;
  return { brand: cardBrandOf(lead), country: cardCountryOf(lead) };
}
