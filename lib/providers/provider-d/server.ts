import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { providerDAdapter } from "./adapter";
import { providerDCallbacks } from "./callbacks";
import { providerDSandbox } from "./sandbox/handler";

export const providerDServer: ProviderServer = { slug: "provider-d", adapter: providerDAdapter, sandbox: providerDSandbox, callbacks: providerDCallbacks };
