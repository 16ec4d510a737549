import { providerA } from "./provider-a";
import { providerB } from "./provider-b";
import { providerC } from "./provider-c";
import { providerD } from "./provider-d";
import { providerE } from "./provider-e";
import { providerF } from "./provider-f";
import type { ProviderSpec } from "./types";

/** Adding a provider: create its folder and append it here; nothing else changes. */
export const PROVIDERS: readonly ProviderSpec[] = [providerA, providerB, providerC, providerD, providerE, providerF];
