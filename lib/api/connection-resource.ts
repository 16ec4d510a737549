import { healthFigures } from "@/lib/analytics/connection-health";
import type { JsonApiResource } from "@/lib/api/responses";
import { publicBaseUrl } from "@/lib/config";
import type { ConnectionHealth } from "@/lib/db/enums";
import type { ConnectionView } from "@/lib/connections/store";

export type ConnectionAttributes = {
  provider: string;
  kind: string;
  label: string;
  mode: "test" | "live";
  enabled: boolean;
  currency: string | null;
  credentials: Record<string, unknown>;
  constants: Record<string, string>;
  services: string[];
  health: ConnectionHealthAttribute;
  created: string;
  updated: string;
};

/**
 * The connection's health as the dashboard shows it (the state kept by lib/analytics/connection-health.ts as
 * attempts settle), with the figures the rule read from the recent outcomes, since when it holds,
 * and the latest error. Read from the connection's own row: a list costs no query more.
 */
export type ConnectionHealthAttribute = {
  state: ConnectionHealth;
  since: string | null;
  recent_outcomes: { counted: number; succeeded: number; failed: number; success_rate: number | null; failures_in_a_row: number };
  last_error: { at: string; resolution: string | null; message: string | null } | null;
  dispute_rate_high: boolean;
};

export function toHealthAttribute(
  view: Pick<ConnectionView, "health" | "healthWindow" | "healthChangedAt" | "lastError" | "disputeRateHigh">,
): ConnectionHealthAttribute {
  const figures = healthFigures(view.healthWindow);
  return {
    state: view.health,
    since: view.healthChangedAt?.toISOString() ?? null,
    recent_outcomes: {
      counted: figures.counted,
      succeeded: figures.succeeded,
      failed: figures.failed,
      success_rate: figures.successRate === null ? null : Math.round(figures.successRate * 10_000) / 10_000,
      failures_in_a_row: figures.failuresInARow,
    },
    last_error: view.lastError ? { at: view.lastError.at.toISOString(), resolution: view.lastError.resolution, message: view.lastError.message } : null,
    dispute_rate_high: view.disputeRateHigh,
  };
}

/** The management API's connection: non-secret values in full, secrets as their masked hint only. */
export function toConnectionResource(view: ConnectionView): JsonApiResource<ConnectionAttributes> {
  const masked = Object.fromEntries(view.credentials.filter((c) => c.secret && c.set).map((c) => [c.id, c.display]));
  return {
    type: "connection",
    id: view.id,
    attributes: {
      provider: view.provider,
      kind: view.kind,
      label: view.label,
      mode: view.mode,
      enabled: view.enabled,
      currency: view.currency,
      credentials: { ...view.publicValues, ...masked },
      constants: view.constants,
      services: view.services,
      health: toHealthAttribute(view),
      created: view.createdAt.toISOString(),
      updated: view.updatedAt.toISOString(),
    },
    // Absolute, on the public base URL (APP_URL), never the Host the request named.
    links: { self: `${publicBaseUrl()}/api/connections/${encodeURIComponent(view.id)}` },
  };
}
