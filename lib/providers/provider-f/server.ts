import "server-only";
import type { ProviderServer } from "@/lib/providers/kit/provider-server";
import { providerFAdapter } from "./adapter";
import { providerFCallbacks } from "./callbacks";
import { providerFSandbox } from "./sandbox/handler";

export const providerFServer: ProviderServer = { slug: "provider-f", adapter: providerFAdapter, sandbox: providerFSandbox, callbacks: providerFCallbacks };
