/**
 * The one list of providers: a line per provider folder, exporting its spec. Adding a provider is
 * its folder (`index.ts` its spec, `server.ts` its server half) and its line here; nothing else
 * changes. The registry (registry.ts) reads every export of this module, in the order of their
 * slugs; the server halves are loaded from the same folders (lib/providers/server/servers.ts).
 * Specs only: client components import the registry.
 */
export { providerA } from "./provider-a";
export { providerB } from "./provider-b";
export { providerC } from "./provider-c";
export { providerD } from "./provider-d";
export { providerE } from "./provider-e";
export { providerF } from "./provider-f";
