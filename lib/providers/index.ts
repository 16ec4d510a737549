/**
 * Public entry of the provider registry. Isomorphic: browser components import it, so nothing
 * reachable from here may use node: modules (those helpers live in ./server).
 */
export type * from "./types";
export { CONNECTION_KINDS, MODES } from "./types";
export { PROVIDERS } from "./registry";
export { getKind, getProvider } from "./lookup";
export { findService, listServices, serviceLabel, serviceLabelOf, servicesForConnection } from "./services";
export { checkCredentials, credentialsSchema, dropInactiveFields, modeOf, validateCredentials, type CredentialCheckOptions } from "./credentials";
export { describeRegistry, type FieldDescription, type KindDescription, type ProviderDescription, type RegistryDescription } from "./describe";
export { checkPem, MAX_KEY_FILE_BYTES, PEM_LABELS, type PemKind } from "./pem";
export {
  CAPABILITY_ASKS,
  CAPABILITY_ASK_POINTERS,
  CAPABILITY_ASK_TEXT,
  capabilitiesOf,
  capabilityAsksOf,
  capabilitySkipReason,
  missingCapability,
  providerCan,
  type CapabilityAsk,
} from "./capabilities";
