import type { JsonApiResource } from "@/lib/api/responses";
import { publicBaseUrl } from "@/lib/config";
import type { ConnectionView } from "./store";

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
  created: string;
  updated: string;
};

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
      created: view.createdAt.toISOString(),
      updated: view.updatedAt.toISOString(),
    },
    // Absolute, on the public base URL (APP_URL), never the Host the request named.
    links: { self: `${publicBaseUrl()}/api/connections/${encodeURIComponent(view.id)}` },
  };
}
