import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { providerCAdapter } from "./adapter";
import { providerCCallbacks } from "./callbacks";
import { providerCSandbox } from "./sandbox";

export const providerCServer: ProviderServer = { slug: "provider-c", adapter: providerCAdapter, sandbox: providerCSandbox, callbacks: providerCCallbacks };
