import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { providerAAdapter } from "./adapter";
import { providerACallbacks } from "./callbacks";
import { providerASandbox } from "./sandbox";

export const providerAServer: ProviderServer = { slug: "provider-a", adapter: providerAAdapter, sandbox: providerASandbox, callbacks: providerACallbacks };
