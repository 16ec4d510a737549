import { providerA } from "./provider-a";
import { providerB } from "./provider-b";
import { providerC } from "./provider-c";
import { providerD } from "./provider-d";
import { providerE } from "./provider-e";
import { providerF } from "./provider-f";
import type { ProviderSpec } from "./types";

/**
 * Adding a provider: create its folder (`index.ts` its spec, `server.ts` its server half) and
 * append its spec here; nothing else changes. This is the only list of providers: the server
 * halves are loaded from the folders it names (lib/providers/server/servers.ts), so this module
 * stays free of server code and client components can import it.
 */
const LISTED: readonly ProviderSpec[] = [providerA, providerB, providerC, providerD, providerE, providerF];

const providers: ProviderSpec[] = [...LISTED];

/** Everything that lists or looks up providers reads this array when called, never a copy made at load. */
export const PROVIDERS: readonly ProviderSpec[] = providers;

/**
 * The folders of the listed providers, each named by its slug (`lib/providers/<slug>/`), not
 * those a test registers at run time: their server halves come with them.
 */
export const PROVIDER_FOLDERS: readonly string[] = LISTED.map((provider) => provider.slug);

/**
 * Adds a provider at run time and returns how to remove it again: the seam through which a test
 * proves that a new folder is enough (lib/providers/registry-extension.test.ts).
 */
export function registerProvider(provider: ProviderSpec): () => void {
  if (providers.some((entry) => entry.slug === provider.slug)) throw new Error(`Provider ${provider.slug} exists already`);
  providers.push(provider);
  return () => {
    const index = providers.indexOf(provider);
    if (index >= 0) providers.splice(index, 1);
  };
}
