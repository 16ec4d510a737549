/**
 * The shapes of routing's JSON columns (lib/db may not import lib/routing, so they are stated
 * here; lib/routing/rules.ts checks that its zod schema produces exactly this).
 */

/** One saved routing rule (lib/routing/rules.ts has the schema and the meaning of each field). */
export type StoredRoutingRule = {
  name: string;
  conditions: {
    amount_min?: string;
    amount_max?: string;
    customer_countries?: string[];
    card_brands?: string[];
    card_countries?: string[];
  };
  outcome:
    | { kind: "cascade"; connection_ids: string[]; order_by?: "as_listed" | "success_rate" }
    | { kind: "split"; branches: { weight: number; connection_ids: string[]; order_by?: "as_listed" | "success_rate" }[] };
  /** true: the provider is asked for 3-D Secure; absent or false: the provider decides. */
  require_three_ds?: boolean;
};

/** A success-rate ordering as an invoice records it (lib/routing/success.ts). */
export type StoredSuccessOrdering = {
  window_hours: number;
  min_sample: number;
  exploration_percent: number;
  /** The outcome's usable connections as listed, each with its counts in the window at the time. */
  rates: { id: string; attempts: number; successes: number; trusted: boolean }[];
  /** The connection exploration put first; null when the draw did not explore. */
  explored: string | null;
  /** The exploration draw in [0, 100). */
  draw: number;
};

/** How routing decided for one invoice (lib/routing/detail.ts writes it). */
export type StoredRoutingDetail = {
  /** 1 while this is the shape. */
  v: 1;
  /** When it was decided: at creation, or again at Pay once the card was known. */
  decided_at: "creation" | "pay";
  /** The routing version in force (0: never saved). */
  version: number;
  rule: { position: number; name: string } | null;
  branch: { position: number; weight: number; draw: number } | null;
  order: string[];
  skipped: { id: string; why: string }[];
  waiting_for_card: { position: number; name: string }[];
  fell_through: { position: number; name: string }[];
  card: { brand: string | null; country: string | null } | null;
  /** The customer's country as the request sent it, kept so Pay can decide again with the card. */
  customer_country: string | null;
  explanation: string;
  /** Present when the outcome orders its connections by success rate. */
  success?: StoredSuccessOrdering;
  /** "required": the rule that decided requires 3-D Secure, so Pay asks the provider for it; absent: the provider decides. */
  three_ds?: "required";
  /** At Pay: where creation had sent it, when Pay changed it. */
  changed_from?: string | null;
};
