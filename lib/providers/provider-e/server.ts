import "server-only";
import type { CallbackPolicy, CallbackReport, ProviderServer } from "@/lib/providers/kit/provider-server";
import type { CredentialValues } from "@/lib/providers/types";
import { providerEAdapter } from "./adapter";
import { providerECallbacks } from "./callbacks";
import { providerESandbox } from "./sandbox/handler";

/**
 * Spec 6: with `ignore_callback` the provider's callbacks never change a transaction's status (a
 * payment, a payout, a refund): the status request decides, so that cascading stays right. A
 * dispute's notice changes no transaction's status and has no status request to wait for (the
 * service learns of a dispute only from it), so it is applied.
 */
function callbackPolicy(credentials: CredentialValues, about: CallbackReport["about"]): CallbackPolicy {
  if (about === "dispute" || credentials.ignore_callback !== true) return { apply: true };
  return { apply: false, reason: "ignore_callback is on: the status request decides" };
}

export const providerEServer: ProviderServer = {
  slug: "provider-e",
  adapter: providerEAdapter,
  sandbox: providerESandbox,
  callbacks: providerECallbacks,
  callbackPolicy,
};
