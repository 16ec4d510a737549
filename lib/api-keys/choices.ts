/** API key choices, without zod, so client components may import them (the schemas load zod). */

/** Test keys create and read test invoices only, live keys live ones only (the key's prefix says which). */
export const API_KEY_MODES = ["test", "live"] as const;
/** `read_only` keys may only read (GET, HEAD); `full` keys may also create and change. */
export const API_KEY_SCOPES = ["full", "read_only"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const API_KEY_SCOPE_LABELS: Readonly<Record<ApiKeyScope, string>> = { full: "Full access", read_only: "Read only" };

/** How long a rolled key keeps working beside its replacement. */
export const ROLL_GRACES = ["now", "1h", "24h", "7d"] as const;
export type RollGrace = (typeof ROLL_GRACES)[number];
export const ROLL_GRACE_SECONDS: Readonly<Record<RollGrace, number>> = { now: 0, "1h": 3_600, "24h": 86_400, "7d": 604_800 };
export const ROLL_GRACE_LABELS: Readonly<Record<RollGrace, string>> = {
  now: "Stop it now",
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
};
