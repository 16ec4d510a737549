import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { providerAServer } from "../provider-a/server";
import { providerBServer } from "../provider-b/server";
import { providerCServer } from "../provider-c/server";
import { providerDServer } from "../provider-d/server";
import { providerEServer } from "../provider-e/server";
import { providerFServer } from "../provider-f/server";

/**
 * Every provider's server half (adapter and sandbox), one line per provider folder: each
 * `lib/providers/<slug>/server.ts` exports `provider<X>Server`, appended here. servers.test.ts
 * fails when a provider of the registry has a server.ts that is not listed, or vice versa.
 */
const servers: ProviderServer[] = [providerAServer, providerBServer, providerCServer, providerDServer, providerEServer, providerFServer];

/** Read when called, like PROVIDERS, so a provider registered by a test is seen at once. */
export const PROVIDER_SERVERS: readonly ProviderServer[] = servers;

export function getProviderServer(slug: string): ProviderServer | undefined {
  return servers.find((server) => server.slug === slug);
}

/**
 * Adds a server at run time and returns how to undo it: the seam through which the engine's tests
 * put a fake provider behind a connection (mirrors registerProvider). `replace` stands in for a
 * listed provider's server until undone.
 */
export function registerProviderServer(server: ProviderServer, options: { replace?: boolean } = {}): () => void {
  const index = servers.findIndex((entry) => entry.slug === server.slug);
  if (index >= 0 && !options.replace) throw new Error(`Provider server ${server.slug} exists already`);
  const previous = index >= 0 ? servers[index] : undefined;
  if (index >= 0) servers[index] = server;
  else servers.push(server);
  return () => {
    const at = servers.indexOf(server);
    if (at < 0) return;
    if (previous) servers[at] = previous;
    else servers.splice(at, 1);
  };
}
