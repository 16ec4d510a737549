import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { providerBAdapter } from "./adapter";
import { providerBCallbacks } from "./callbacks";
import { providerBSandbox } from "./sandbox";

export const providerBServer: ProviderServer = { slug: "provider-b", adapter: providerBAdapter, sandbox: providerBSandbox, callbacks: providerBCallbacks };
