import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { providerEAdapter } from "./adapter";
import { providerECallbacks } from "./callbacks";
import { providerESandbox } from "./sandbox/handler";

export const providerEServer: ProviderServer = { slug: "provider-e", adapter: providerEAdapter, sandbox: providerESandbox, callbacks: providerECallbacks };
