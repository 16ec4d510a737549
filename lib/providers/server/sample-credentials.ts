import "server-only";
import { providerASamples } from "../provider-a/samples";
import { providerBSamples } from "../provider-b/samples";
import { providerCSamples } from "../provider-c/samples";
import { providerDSamples } from "../provider-d/samples";
import { providerESamples } from "../provider-e/samples";
import { providerFSamples } from "../provider-f/samples";
import type { ConnectionKind, CredentialValues, Mode, ProviderSamples } from "../types";

/**
 * The server half of the registry: each provider folder's `samples.ts`, kept apart from
 * `../registry.ts` because samples may generate keys (node:crypto) and must stay off the browser.
 */
const SAMPLES: ProviderSamples[] = [
  providerASamples,
  providerBSamples,
  providerCSamples,
  providerDSamples,
  providerESamples,
  providerFSamples,
];

/** Valid credentials for seeding demo data and tests; throws for a provider or kind that does not exist. */
export function sampleCredentials(slug: string, kind: ConnectionKind, mode: Mode): CredentialValues {
  const build = SAMPLES.find((samples) => samples.slug === slug)?.kinds[kind];
  if (build === undefined) throw new Error(`No sample credentials for ${slug} ${kind}`);
  return build(mode);
}

/** Adds a provider's samples at run time (see `registerProvider`); returns how to remove them. */
export function registerSamples(samples: ProviderSamples): () => void {
  if (SAMPLES.some((entry) => entry.slug === samples.slug)) throw new Error(`Samples for ${samples.slug} exist already`);
  SAMPLES.push(samples);
  return () => {
    const index = SAMPLES.indexOf(samples);
    if (index >= 0) SAMPLES.splice(index, 1);
  };
}
