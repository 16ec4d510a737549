import "server-only";
import type { CallbackPolicy, ProviderServer } from "@/lib/providers/kit/provider-server";
import type { CredentialValues } from "@/lib/providers/types";
import { providerEAdapter } from "./adapter";
import { providerECallbacks } from "./callbacks";
import { providerESandbox } from "./sandbox/handler";

/** Spec 6: with `ignore_callback` on, callbacks are stored but only the status request finalises a payment. */
function callbackPolicy(credentials: CredentialValues): CallbackPolicy {
  return credentials.ignore_callback === true ? { apply: false, reason: "ignore_callback is on: the status request decides" } : { apply: true };
}

export const providerEServer: ProviderServer = {
  slug: "provider-e",
  adapter: providerEAdapter,
  sandbox: providerESandbox,
  callbacks: providerECallbacks,
  callbackPolicy,
};
