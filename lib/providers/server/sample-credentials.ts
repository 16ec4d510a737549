import "server-only";
import { randomUUID } from "node:crypto";
import { getProvider } from "../lookup";
import type { ConnectionKind, CredentialValues, Mode, SampleMakers } from "../types";
import { randomToken, sampleKeyPair } from "./sample-values";

const MAKERS: SampleMakers = { keyPair: sampleKeyPair, token: randomToken, uuid: randomUUID };

/**
 * Valid credentials for seeding demo data and tests, from the provider folder's `samples`; throws
 * for a provider or kind that does not exist. Key pairs and random values come from here, so the
 * folders' samples stay free of node: modules and ride along in the isomorphic registry.
 */
export function sampleCredentials(slug: string, kind: ConnectionKind, mode: Mode): CredentialValues {
  const build = getProvider(slug)?.samples[kind];
  if (build === undefined) throw new Error(`No sample credentials for ${slug} ${kind}`);
  return build(mode, MAKERS);
}
