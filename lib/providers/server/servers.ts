import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { PROVIDER_FOLDERS } from "../registry";

/**
 * Every provider's server half, loaded from the folders the registry lists (lib/providers/list.ts is
 * the one list): `lib/providers/<folder>/server.ts` exports its `ProviderServer`, whose slug is the
 * folder's name. The import is keyed by the folder, so the bundler includes every
 * `lib/providers/<folder>/server.ts` and tsx and vitest resolve it when it runs; the registry stays
 * free of server code. servers.test.ts fails when a folder's server.ts is not loaded.
 *
 * Loaded once, before any module that imports this one runs (top-level await), so lookups stay
 * synchronous. A server half must therefore never import, even indirectly, a module that imports
 * this one: the import would wait for itself (servers.test.ts checks this too).
 */
async function loadServer(folder: string): Promise<ProviderServer> {
  const exports: Record<string, unknown> = await import(`../${folder}/server.ts`);
  const found = Object.values(exports).filter((value): value is ProviderServer => isServerOf(value, folder));
  if (found.length !== 1) throw new Error(`lib/providers/${folder}/server.ts must export one ProviderServer with slug "${folder}"`);
  return found[0]!;
}

function isServerOf(value: unknown, slug: string): boolean {
  return typeof value === "object" && value !== null && (value as { slug?: unknown }).slug === slug && "adapter" in value && "sandbox" in value;
}

const servers: ProviderServer[] = await Promise.all(PROVIDER_FOLDERS.map(loadServer));

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
