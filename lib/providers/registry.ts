import * as providerList from "./list";
import type { ProviderSpec } from "./types";

/**
 * The providers of lib/providers/list.ts, each exported spec once, ordered by slug (a
 * module's exports carry no order of their own). This module stays free of server code, so client
 * components can import it.
 */
const LISTED: readonly ProviderSpec[] = Object.values<ProviderSpec>(providerList).sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));

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
