import type { ConnectionView } from "@/lib/connections/store";
import type { Role } from "@/lib/db/schema";
import { findService, getProvider, PROVIDERS, type InvoiceDirection, type Mode, type ServiceSpec } from "@/lib/providers";
import type { InvoiceTemplate } from "./templates";
import { canInMode } from "@/lib/identity/permissions";
import { providerCan } from "@/lib/providers/capabilities";

/**
 * What the composer may know of a connection: label, provider, mode, services and the constants
 * the customer preview applies. Never credentials, not even masked ones.
 */
export type ComposerConnection = {
  id: string;
  label: string;
  provider: string;
  providerName: string;
  kind: string;
  mode: Mode;
  services: string[];
  constants: Record<string, string>;
};

/** Enabled connections the viewer may compose with: support members see test-mode ones only. */
export function composerConnections(views: readonly ConnectionView[], role: Role): ComposerConnection[] {
  return views
    .filter((view) => view.enabled && (canInMode(role, "invoices.compose", "live") || view.mode === "test"))
    .map((view) => ({
      id: view.id,
      label: view.label,
      provider: view.provider,
      providerName: getProvider(view.provider)?.name ?? view.provider,
      kind: view.kind,
      mode: view.mode,
      services: view.services,
      constants: view.constants,
    }));
}

export function servicesOf(connection: ComposerConnection | undefined, direction: InvoiceDirection): ServiceSpec[] {
  if (!connection) return [];
  return connection.services.map(findService).filter((service): service is ServiceSpec => service?.direction === direction);
}

export type ProviderGroup = { provider: string; name: string; connections: ComposerConnection[] };

/** Connections offering a service of the invoice type, grouped by provider in registry order. */
export function groupByProvider(connections: readonly ComposerConnection[], direction: InvoiceDirection): ProviderGroup[] {
  return PROVIDERS.map((provider) => ({
    provider: provider.slug,
    name: provider.name,
    connections: connections.filter((c) => c.provider === provider.slug && servicesOf(c, direction).length > 0),
  })).filter((group) => group.connections.length > 0);
}

/** A template's connection: the provider's first test-mode connection offering the template's service. */
export function templateConnection(connections: readonly ComposerConnection[], template: InvoiceTemplate): ComposerConnection | undefined {
  return connections.find((c) => c.provider === template.provider && c.mode === "test" && c.services.includes(template.service));
}

/**
 * What changes when a connection is chosen: its provider, a service it offers (the current one
 * if still offered), that service's currency, and test_mode following the connection's mode.
 */
export function connectionPatch(connection: ComposerConnection, direction: InvoiceDirection, currentService: string) {
  const services = servicesOf(connection, direction);
  const service = services.find((s) => s.code === currentService) ?? services[0];
  return {
    provider: connection.provider,
    service: service?.code ?? "",
    currency: service?.currency ?? "",
    test_mode: connection.mode === "test",
  };
}

/** Enabled connections in routing order per `service:mode` (the routing order's id), as the page reads them. */
export type ComposerRoutes = Readonly<Record<string, readonly string[]>>;

/**
 * The routes the composer may show: each order's enabled connections the viewer may compose with,
 * in order. The first takes a new invoice; the rest are where a soft failure cascades.
 */
export function composerRoutes(
  orders: readonly { id: string; connections: readonly { connectionId: string; enabled: boolean }[] }[],
  connections: readonly ComposerConnection[],
): Record<string, string[]> {
  const allowed = new Set(connections.map((c) => c.id));
  const routes: Record<string, string[]> = {};
  for (const order of orders) {
    const ids = order.connections.filter((c) => c.enabled && allowed.has(c.connectionId)).map((c) => c.connectionId);
    if (ids.length > 0) routes[order.id] = ids;
  }
  return routes;
}

/** Where an automatically routed invoice of this service and mode goes: first, then the cascade. */
export function routeFor(routes: ComposerRoutes, connections: readonly ComposerConnection[], service: string, testMode: boolean): ComposerConnection[] {
  const ids = routes[`${service}:${testMode ? "test" : "live"}`] ?? [];
  return ids.map((id) => connections.find((c) => c.id === id)).filter((c): c is ComposerConnection => c !== undefined);
}

/** Services of the invoice type that at least one of the connections offers, in registry order. */
export function routableServices(connections: readonly ComposerConnection[], direction: InvoiceDirection): ServiceSpec[] {
  const offered = new Set(connections.flatMap((c) => servicesOf(c, direction).map((s) => s.code)));
  const services = new Map<string, ServiceSpec>();
  for (const service of PROVIDERS.flatMap((provider) => provider.services)) {
    if (offered.has(service.code) && !services.has(service.code)) services.set(service.code, service);
  }
  return [...services.values()];
}

/**
 * Whether "Authorize only" is offered: some connection the invoice may go to (the pinned one, or
 * the routing order's) belongs to a provider that authorizes now and captures later.
 */
export function authorizeOffered(reachable: readonly Pick<ComposerConnection, "provider">[]): boolean {
  return reachable.some((connection) => providerCan(connection.provider, "authorize_capture"));
}
