import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../registry";
import { PROVIDER_SERVERS, getProviderServer } from "./servers";

const providersDir = fileURLToPath(new URL("..", import.meta.url));
const hasServerFile = (slug: string) => existsSync(`${providersDir}/${slug}/server.ts`);

/**
 * Issue 10: every provider has an adapter and a sandbox. While a provider's server.ts is still
 * being written the test does not demand it; once the file exists it must be listed, and the
 * list holds nothing else.
 */
describe("provider servers (lib/providers/<slug>/server.ts)", () => {
  it.each(PROVIDERS.map((provider) => [provider.slug]))("%s: listed in servers.ts once its server.ts exists", (slug) => {
    if (!hasServerFile(slug)) return;
    const server = getProviderServer(slug);
    expect(server, `${slug} has server.ts but is missing from PROVIDER_SERVERS`).toBeDefined();
    expect(typeof server?.adapter.createPayment).toBe("function");
    expect(typeof server?.sandbox).toBe("function");
  });

  it("the list and the provider folders with a server.ts agree", () => {
    const folders = readdirSync(providersDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name.startsWith("provider-") && hasServerFile(entry.name))
      .map((entry) => entry.name)
      .sort();
    const listed = PROVIDER_SERVERS.map((server) => server.slug).sort();
    expect(listed).toEqual(folders);
  });

  it("names the providers that have no server yet", () => {
    const missing = PROVIDERS.filter((provider) => !getProviderServer(provider.slug)).map((provider) => provider.slug);
    // Informational while issue 10 is under way: the providers still without adapter and sandbox.
    expect(Array.isArray(missing)).toBe(true);
    if (missing.length > 0) console.info(`providers without a server yet: ${missing.join(", ")}`);
  });
});
