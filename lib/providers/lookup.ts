import { PROVIDERS } from "./registry";
import type { ConnectionKind, KindSpec, ProviderSpec } from "./types";

export function getProvider(slug: string): ProviderSpec | undefined {
  return PROVIDERS.find((provider) => provider.slug === slug);
}

export function getKind(slug: string, kind: ConnectionKind | string): KindSpec | undefined {
  return getProvider(slug)?.kinds.find((candidate) => candidate.kind === kind);
}
