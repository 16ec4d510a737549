import "server-only";
import type { Db } from "@/lib/db/client";
import type { ProviderAdapter } from "./adapter";

/**
 * The server half of a provider folder (`lib/providers/<slug>/server.ts`, server-only): its
 * adapter and its sandbox. Listed in `lib/providers/server/servers.ts`; a test fails when a
 * provider of the registry has no entry there.
 */
export type ProviderServer = {
  slug: string;
  adapter: ProviderAdapter;
  sandbox: SandboxHandler;
};

/**
 * One provider's simulated API, served under `/sandbox/<slug>/…` by
 * `app/sandbox/[slug]/[[...path]]/route.ts`. It has its own wire format, checks credentials as
 * the provider would (looking the account up among test-mode connections, `lib/sandbox/accounts.ts`),
 * decides outcomes from the test cards (`lib/sandbox/cards.ts`) and keeps its own record of what it
 * received (`lib/sandbox/records.ts`).
 */
export type SandboxHandler = (request: Request, context: SandboxContext) => Promise<Response>;

export type SandboxContext = {
  /** The path below `/sandbox/<slug>`, split on "/", e.g. ["v1", "payments"]. */
  path: string[];
  db: Db;
  /** This server's public base URL, for links the sandbox hands out (its 3-D Secure page). */
  publicBaseUrl: string;
};
