import type { StoredSuccessOrdering } from "@/lib/db/routing-types";

/**
 * Success-rate ordering of a rule's cascade, pure and isomorphic. A cascade whose `order_by` is
 * `success_rate` is ordered by each connection's success rate for the service over the merchant's
 * window (lib/routing/success-stats.ts counts it), instead of as listed:
 *
 * - trusted: a connection with at least `minSample` counted attempts in the window. The trusted
 *   connections are sorted by rate, highest first (equal rates keep their listed order), among the
 *   places trusted connections hold in the list;
 * - untrusted (fewer attempts: a new connection, or one idle for a while) keep their listed place.
 *   Without data the cascade is as listed, and a connection listed first gathers its sample at once
 *   rather than waiting behind the others for exploration;
 * - exploration: with probability `explorationPercent`%, one draw puts another connection first,
 *   each of the others equally likely, the rest keeping their order. So a provider whose rate fell
 *   while it failed still gets a few invoices; once it recovers they succeed, its rate climbs as
 *   the failures leave the window, and it takes its place again.
 *
 * Counted (see lib/analytics/connection-health.ts, the same rule as connection health): a success is an
 * attempt the provider processed; a failure is one it could not (unavailable, authentication,
 * mode, unreadable or unknown answers). Declines for the card or the customer (issuer decline,
 * insufficient funds, CVV, 3-D Secure, expired card) are no fault of the provider and count in
 * neither.
 */

export type ConnectionStats = { attempts: number; successes: number };

export type SuccessSettings = {
  /** The sliding window, in hours (1 to 168). */
  windowHours: number;
  /** Counted attempts within the window before a connection's rate is trusted. */
  minSample: number;
  /** Whole percent of invoices (0 to 20) that try another connection first. */
  explorationPercent: number;
};

export const DEFAULT_SUCCESS_SETTINGS: SuccessSettings = { windowHours: 24, minSample: 20, explorationPercent: 5 };

/** What a decision needs: the counts per connection for the service, the settings and one draw in [0, 1). */
export type SuccessSnapshot = {
  stats: ReadonlyMap<string, ConnectionStats>;
  settings: SuccessSettings;
  draw: number;
};

const NONE: ConnectionStats = { attempts: 0, successes: 0 };

/** The usable ids of one cascade, ordered by success rate (see above), and what the invoice records of it. */
export function orderBySuccess(ids: readonly string[], snapshot: SuccessSnapshot): { ids: string[]; success: StoredSuccessOrdering } {
  const { settings } = snapshot;
  const minSample = Math.max(1, settings.minSample);
  const rates = ids.map((id) => {
    const counted = snapshot.stats.get(id) ?? NONE;
    return { id, attempts: counted.attempts, successes: counted.successes, trusted: counted.attempts >= minSample };
  });
  const trusted = rates.filter((entry) => entry.trusted);
  // Array.prototype.sort is stable: equal rates keep their listed order.
  const sorted = [...trusted].sort((a, b) => b.successes / b.attempts - a.successes / a.attempts);
  let next = 0;
  const ordered = rates.map((entry) => (entry.trusted ? sorted[next++]!.id : entry.id));
  const draw = Math.min(Math.max(snapshot.draw, 0), 0.999999999);
  const share = Math.min(Math.max(settings.explorationPercent, 0), 100) / 100;
  let explored: string | null = null;
  if (ordered.length > 1 && draw < share) {
    // The same draw, spread over the others: each is equally likely to go first.
    const index = 1 + Math.min(Math.floor((draw / share) * (ordered.length - 1)), ordered.length - 2);
    explored = ordered[index]!;
    ordered.splice(index, 1);
    ordered.unshift(explored);
  }
  return {
    ids: ordered,
    success: {
      window_hours: settings.windowHours,
      min_sample: minSample,
      exploration_percent: settings.explorationPercent,
      rates,
      explored,
      draw: draw * 100,
    },
  };
}

/** "24 h", "3 d", "36 h". */
function windowText(hours: number): string {
  return hours >= 48 && hours % 24 === 0 ? `${hours / 24} d` : `${hours} h`;
}

/** "92%" (whole percent; never rounds a failure up to 100% or a success down to 0%). */
export function rateText(successes: number, attempts: number): string {
  const percent = Math.round((successes / attempts) * 100);
  if (percent === 100 && successes < attempts) return "99%";
  if (percent === 0 && successes > 0) return "1%";
  return `${percent}%`;
}

/** The sentences an invoice carries about a success-rate ordering. */
export function explainSuccess(success: StoredSuccessOrdering, label: (id: string) => string): string {
  const trusted = success.rates.filter((entry) => entry.trusted);
  const untrusted = success.rates.filter((entry) => !entry.trusted);
  const parts: string[] = [];
  const window = windowText(success.window_hours);
  if (trusted.length > 0) {
    const sorted = [...trusted].sort((a, b) => b.successes / b.attempts - a.successes / a.attempts);
    parts.push(
      `Ordered by success rate over the last ${window}: ${sorted.map((entry) => `${label(entry.id)} ${rateText(entry.successes, entry.attempts)} of ${entry.attempts}`).join(", ")}.`,
    );
  } else {
    parts.push(`Ordered by success rate over the last ${window}, but no connection has ${success.min_sample} attempts yet, so they keep their listed order.`);
  }
  if (trusted.length > 0 && untrusted.length > 0) {
    const few = untrusted.map((entry) => `${label(entry.id)} (${entry.attempts})`).join(", ");
    parts.push(`Fewer than ${success.min_sample} attempts, keeping ${untrusted.length > 1 ? "their" : "its"} listed place: ${few}.`);
  }
  if (success.explored) parts.push(`Exploration (${success.exploration_percent}% of invoices) tried ${label(success.explored)} first.`);
  return parts.join(" ");
}
