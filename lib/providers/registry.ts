import { providerA } from "./provider-a";
import { providerB } from "./provider-b";
import { providerC } from "./provider-c";
import { providerD } from "./provider-d";
import { providerE } from "./provider-e";
import { providerF } from "./provider-f";
import type { ProviderSpec } from "./types";

const providers: ProviderSpec[] = [providerA, providerB, providerC, providerD, providerE, providerF];

/**
 * Adding a provider: create its folder and append it here; nothing else changes. Everything that
 * lists or looks up providers reads this array when called, never a copy made at load.
 */
export const PROVIDERS: readonly ProviderSpec[] = providers;

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
