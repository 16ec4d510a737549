import { z } from "zod";
import type { BlocklistRule } from "./settings";

/**
 * Blocklist entries: their kinds, how a value is written and checked, and whether an entry matches
 * what a Pay or a create knows. Plain data and pure functions, safe for client components (the
 * Risk page's form parses with the same schema as the action and the API).
 */
export type BlocklistKind = "card" | "bin" | "email" | "address" | "country";

export const BLOCKLIST_KIND_LABELS: Readonly<Record<BlocklistKind, string>> = {
  card: "Card",
  bin: "Card BIN",
  email: "Customer e-mail",
  address: "Client address or range",
  country: "Customer country",
};

export const RULE_OF_KIND: Readonly<Record<BlocklistKind, BlocklistRule>> = {
  card: "blocklist_card",
  bin: "blocklist_bin",
  email: "blocklist_email",
  address: "blocklist_address",
  country: "blocklist_country",
};

/** An IPv4 or IPv6 address as a number and its width in bits, or null. */
export function parseAddress(text: string): { bits: 32 | 128; value: bigint } | null {
  const value = text.trim().toLowerCase();
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((part) => part > 255)) return null;
    return { bits: 32, value: parts.reduce((sum, part) => (sum << 8n) + BigInt(part), 0n) };
  }
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(value);
  if (mapped) return parseAddress(mapped[1]!);
  if (!/^[0-9a-f:]+$/.test(value) || value.length > 39) return null;
  const halves = value.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (all.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  return { bits: 128, value: all.reduce((sum, group) => (sum << 16n) + BigInt(parseInt(group, 16)), 0n) };
}

/** An address or CIDR range ("203.0.113.0/24", "2001:db8::/32"), or null. */
function parseRange(text: string): { bits: 32 | 128; value: bigint; prefix: number } | null {
  const [address, prefixText, extra] = text.trim().split("/");
  if (extra !== undefined || address === undefined) return null;
  const parsed = parseAddress(address);
  if (!parsed) return null;
  if (prefixText === undefined) return { ...parsed, prefix: parsed.bits };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > parsed.bits) return null;
  return { ...parsed, prefix: Number(prefixText) };
}

export function rangeContains(range: string, address: string): boolean {
  const parsedRange = parseRange(range);
  const parsed = parseAddress(address);
  if (!parsedRange || !parsed || parsed.bits !== parsedRange.bits) return false;
  const shift = BigInt(parsed.bits - parsedRange.prefix);
  return parsed.value >> shift === parsedRange.value >> shift;
}

/** A value as stored: e-mails lower-cased, countries upper-cased, ranges written canonically. */
export function normalizeBlocklistValue(kind: BlocklistKind, value: string): string {
  const trimmed = value.trim();
  if (kind === "email") return trimmed.toLowerCase();
  if (kind === "country") return trimmed.toUpperCase();
  if (kind === "address") return trimmed.toLowerCase();
  return trimmed.replace(/[\s-]/g, "");
}

const VALUE_RULES: Record<Exclude<BlocklistKind, "card">, { check: (value: string) => boolean; message: string }> = {
  bin: { check: (value) => /^\d{6,8}$/.test(value), message: "A BIN is the card number's first 6 to 8 digits" },
  email: { check: (value) => z.email().safeParse(value).success && value.length <= 254, message: "Enter an e-mail address" },
  address: { check: (value) => parseRange(value) !== null, message: "Enter an IPv4 or IPv6 address, or a range such as 203.0.113.0/24" },
  country: { check: (value) => /^[A-Z]{2}$/.test(value), message: "Enter a two-letter country code, such as GB" },
};

/** What the API and the Risk page's form add: a BIN, e-mail, address or range, or country (a card is blocked from its invoice). */
export const blocklistEntrySchema = z
  .strictObject({
    kind: z.enum(["bin", "email", "address", "country"], { error: "Choose bin, email, address or country" }),
    value: z.string({ error: "Enter a value" }).trim().min(1, "Enter a value").max(254, "At most 254 characters"),
    note: z.string({ error: "A note is text" }).trim().max(200, "At most 200 characters").default(""),
  })
  .superRefine((entry, context) => {
    const rule = VALUE_RULES[entry.kind];
    if (!rule.check(normalizeBlocklistValue(entry.kind, entry.value))) context.addIssue({ code: "custom", path: ["value"], message: rule.message });
  });

export type BlocklistEntry = { kind: BlocklistKind; value: string };

/** What the check knows of a Pay or a create; a missing fact matches nothing. */
export type RiskFacts = {
  cardFingerprint?: string | null;
  cardDigits?: string | null;
  email?: string | null;
  address?: string | null;
  country?: string | null;
};

export type BlocklistMatcher = (facts: RiskFacts) => BlocklistEntry | null;

/**
 * The entries made ready for many checks (Pay keeps one per merchant and mode while its rules stand):
 * a lookup per kind instead of a pass over every entry, ranges parsed once. A fact matches in the
 * order card, BIN, e-mail, address, country; a missing fact matches nothing.
 */
export function compileBlocklist(entries: readonly BlocklistEntry[]): BlocklistMatcher {
  const exact = { card: new Map<string, BlocklistEntry>(), email: new Map<string, BlocklistEntry>(), country: new Map<string, BlocklistEntry>() };
  const bins = new Map<string, BlocklistEntry>();
  const ranges: { entry: BlocklistEntry; bits: 32 | 128; value: bigint; shift: bigint }[] = [];
  for (const entry of entries) {
    if (entry.kind === "bin") bins.set(entry.value, entry);
    else if (entry.kind === "address") {
      const range = parseRange(entry.value);
      if (range) ranges.push({ entry, bits: range.bits, shift: BigInt(range.bits - range.prefix), value: range.value >> BigInt(range.bits - range.prefix) });
    } else exact[entry.kind].set(entry.value, entry);
  }
  const binLengths = [...new Set([...bins.keys()].map((bin) => bin.length))];
  return (facts) => {
    const card = facts.cardFingerprint ? exact.card.get(facts.cardFingerprint) : undefined;
    if (card) return card;
    if (facts.cardDigits) {
      for (const length of binLengths) {
        const bin = facts.cardDigits.length >= length ? bins.get(facts.cardDigits.slice(0, length)) : undefined;
        if (bin) return bin;
      }
    }
    const email = facts.email ? exact.email.get(facts.email.trim().toLowerCase()) : undefined;
    if (email) return email;
    const address = facts.address && ranges.length > 0 ? parseAddress(facts.address) : null;
    if (address) {
      const range = ranges.find((candidate) => candidate.bits === address.bits && address.value >> candidate.shift === candidate.value);
      if (range) return range.entry;
    }
    return (facts.country ? exact.country.get(facts.country.trim().toUpperCase()) : undefined) ?? null;
  };
}

/** The entry that matches the facts, or null (one check; see `compileBlocklist`). */
export function matchBlocklist(entries: readonly BlocklistEntry[], facts: RiskFacts): BlocklistEntry | null {
  return compileBlocklist(entries)(facts);
}

/** The customer's e-mail and country as an invoice holds them (`customer.email`, `customer.address.country`). */
export function customerFacts(customer: Record<string, unknown>): { email: string | null; country: string | null } {
  const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : null);
  const address = customer.address;
  const country = text(customer.country) ?? (typeof address === "object" && address !== null ? text((address as Record<string, unknown>).country) : null);
  return { email: text(customer.email), country };
}
