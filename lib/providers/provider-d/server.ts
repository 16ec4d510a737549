import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { providerDAdapter } from "./adapter";
import { checkLiveApiUrl } from "./api-url";
import { providerDCallbacks } from "./callbacks";
import { providerDSandbox } from "./sandbox/handler";

export const providerDServer: ProviderServer = {
  slug: "provider-d",
  adapter: providerDAdapter,
  sandbox: providerDSandbox,
  callbacks: providerDCallbacks,
  // The h2h kind's api_url (its liveUrlField) receives the API key and a signature made with the secret key.
  guardLiveUrl: checkLiveApiUrl,
};
