import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROVIDER_FOLDERS, PROVIDERS } from "../registry";
import { PROVIDER_SERVERS, getProviderServer } from "./servers";

const providersDir = fileURLToPath(new URL("..", import.meta.url));
const root = path.resolve(providersDir, "../..");
const serversFile = fileURLToPath(new URL("./servers.ts", import.meta.url));
const hasServerFile = (slug: string) => existsSync(`${providersDir}/${slug}/server.ts`);

/** The modules a file imports for their values (type-only imports are erased and load nothing). */
function valueImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm)].map((match) => match[1]!);
  return specifiers.flatMap((specifier) => {
    const base = specifier.startsWith("@/")
      ? path.join(root, specifier.slice(2))
      : specifier.startsWith(".")
        ? path.resolve(path.dirname(file), specifier)
        : undefined;
    const resolved =
      base && ["", ".ts", ".tsx", "/index.ts"].map((ending) => base + ending).find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
    return resolved ? [resolved] : [];
  });
}

/** Whether `from` reaches `to` through static value imports. */
function reaches(from: string, to: string): boolean {
  const seen = new Set([from]);
  const queue = [from];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (file === to) return true;
    for (const next of valueImports(file)) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return false;
}

/**
 * Every provider of the registry has a server half (adapter, sandbox, callbacks), loaded by
 * servers.ts from its folder: a folder's server.ts that is not loaded, or a loaded one without a
 * folder, fails here.
 */
describe("provider servers (lib/providers/<slug>/server.ts)", () => {
  it.each(PROVIDERS.map((provider) => [provider.slug]))("%s: its server.ts is loaded", (slug) => {
    expect(hasServerFile(slug), `lib/providers/${slug}/server.ts is missing`).toBe(true);
    const server = getProviderServer(slug);
    expect(server, `${slug} has server.ts but is missing from PROVIDER_SERVERS`).toBeDefined();
    expect(typeof server?.adapter.createPayment).toBe("function");
    expect(typeof server?.sandbox).toBe("function");
  });

  it("the loaded servers and the provider folders with a server.ts agree", () => {
    const folders = readdirSync(providersDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name.startsWith("provider-") && hasServerFile(entry.name))
      .map((entry) => entry.name)
      .sort();
    const listed = PROVIDER_SERVERS.map((server) => server.slug).sort();
    expect(listed).toEqual(folders);
    expect([...PROVIDER_FOLDERS].sort()).toEqual(folders);
  });

  it("every provider has a server", () => {
    expect(PROVIDERS.filter((provider) => !getProviderServer(provider.slug)).map((provider) => provider.slug)).toEqual([]);
  });

  it.each(PROVIDERS.flatMap((provider) => provider.kinds.filter((kind) => kind.liveUrlField).map((kind) => [provider.slug, kind.kind])))(
    "%s %s: a kind with its own live address comes with the provider's check of it",
    (slug) => {
      expect(typeof getProviderServer(slug)?.guardLiveUrl).toBe("function");
    },
  );

  it.each(PROVIDER_FOLDERS.map((folder) => [folder]))("%s: its server half does not import servers.ts, which awaits it", (folder) => {
    expect(reaches(path.join(providersDir, folder, "server.ts"), serversFile)).toBe(false);
  });

  it("the import graph walk finds a module that does import servers.ts", () => {
    expect(reaches(path.join(root, "lib/processing/engine.ts"), serversFile)).toBe(true);
  });
});
