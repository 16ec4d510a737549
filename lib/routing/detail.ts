import type { StoredRoutingDetail, StoredSuccessOrdering } from "@/lib/db/routing-types";
import type { RoutingReason } from "@/lib/db/enums";
import { cardFactsOf } from "../cards/bin";
import type { RouteFacts, RoutingDecision } from "./decide";

export type RoutingDetail = StoredRoutingDetail;

/** What an invoice stores of a routing decision (never a card number: brand and country only). */
export function toStoredDetail(
  decision: RoutingDecision,
  context: { decidedAt: "creation" | "pay"; version: number; customerCountry: string | null; changedFrom?: string | null },
): RoutingDetail {
  return {
    v: 1,
    decided_at: context.decidedAt,
    version: context.version,
    rule: decision.rule,
    branch: decision.branch,
    order: decision.connectionIds,
    skipped: decision.skipped,
    waiting_for_card: decision.waitingForCard,
    fell_through: decision.fellThrough,
    card: decision.card,
    customer_country: context.customerCountry,
    ...(decision.success ? { success: decision.success } : {}),
    ...(decision.threeDs === "required" ? { three_ds: "required" as const } : {}),
    explanation: context.changedFrom
      ? `${decision.explanation} Routed again at Pay once the card was known: creation had chosen another connection.`
      : decision.explanation,
    ...(context.changedFrom === undefined ? {} : { changed_from: context.changedFrom }),
  };
}

type Placed = { customer?: { address?: { country?: unknown } } | null };

/** customer.address.country as the request sent it, from any of the three placements (spec 2.1, 2.3). */
function customerCountryOf(data: unknown): string | null {
  const root = (data ?? {}) as Placed & { attributes?: (Placed & { gateway_options?: Placed | null }) | null };
  for (const placed of [root.attributes, root, root.attributes?.gateway_options]) {
    const country = placed?.customer?.address?.country;
    if (typeof country === "string" && /^[A-Z]{2}$/.test(country)) return country;
  }
  return null;
}

/**
 * The facts routing reads at creation: the amount, the customer's country and, for a payout, its
 * card (full or masked: the first six digits are kept in either). A payment's card is not known
 * before Pay, except that a payment bypassing the hosted page never has one.
 */
export function creationFacts(input: {
  amountMinor: bigint;
  data: unknown;
  cardNumber: string | undefined;
  direction: "payment" | "payout";
  bypassesHostedPage: boolean;
}): RouteFacts {
  const card = input.cardNumber !== undefined ? cardFactsOf(input.cardNumber) : input.direction === "payout" || input.bypassesHostedPage ? null : undefined;
  return { amountMinor: input.amountMinor, customerCountry: customerCountryOf(input.data), card };
}

/** The API's `routing` attribute and the invoice page's sentence. */
export type RoutingAttribute = {
  reason: RoutingReason;
  explanation: string;
  rule: { position: number; name: string } | null;
  branch: { position: number; weight: number } | null;
  order: string[];
  decided_at: "creation" | "pay" | null;
  /** When the outcome ordered its connections by success rate: the counts used and whether exploration drew. */
  success_rate: SuccessRateAttribute | null;
};

export type SuccessRateAttribute = {
  window_hours: number;
  min_sample: number;
  exploration_percent: number;
  connections: { id: string; attempts: number; successes: number; trusted: boolean }[];
  explored: string | null;
};

export function successRateAttributeOf(success: StoredSuccessOrdering | undefined | null): SuccessRateAttribute | null {
  if (!success) return null;
  return {
    window_hours: success.window_hours,
    min_sample: success.min_sample,
    exploration_percent: success.exploration_percent,
    connections: success.rates.map((entry) => ({ id: entry.id, attempts: entry.attempts, successes: entry.successes, trusted: entry.trusted })),
    explored: success.explored,
  };
}

const LEGACY: Record<RoutingReason, string> = {
  pinned: "The request named this connection (data.relationships.connection); pinned invoices do not cascade.",
  routing_order: "The first enabled connection of the routing order for this service and mode.",
  cascaded: "An earlier connection failed softly, so the next one took the invoice.",
};

/** From the stored columns; invoices routed before rules existed get the plain reason's sentence. */
export function routingAttributeOf(reason: RoutingReason | null, detail: RoutingDetail | null, connectionLabel?: string): RoutingAttribute | null {
  if (reason === null) return null;
  const base = detail?.explanation ?? LEGACY[reason];
  const explanation =
    reason === "cascaded" && detail ? `${base} It then cascaded after a soft failure${connectionLabel ? ` to ${connectionLabel}` : ""}.` : base;
  return {
    reason,
    explanation,
    rule: detail?.rule ?? null,
    branch: detail?.branch ? { position: detail.branch.position, weight: detail.branch.weight } : null,
    order: detail?.order ?? [],
    decided_at: detail?.decided_at ?? null,
    success_rate: successRateAttributeOf(detail?.success),
  };
}
