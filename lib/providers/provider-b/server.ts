import "server-only";
import type { ProviderServer } from "@/lib/processing/provider-server";
import { providerBAdapter } from "./adapter";
import { providerBSandbox } from "./sandbox";

export const providerBServer: ProviderServer = { slug: "provider-b", adapter: providerBAdapter, sandbox: providerBSandbox };
