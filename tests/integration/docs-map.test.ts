import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ARCHITECTURE.md and docs/ are the map a newcomer reads: every file or folder they name in
 * backticks must exist, so a move or a rename that forgets the map fails here rather than misleading
 * the next reader. `<slug>` and `*` stand for any provider folder or file; `{a,b}` for each of a and b.
 */
const root = path.resolve(__dirname, "../..");
const ROOTS = ["lib", "app", "components", "server", "scripts", "tests", "e2e", "bench", "docs", "eslint-rules", "public"];

function expand(token: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(token);
  if (!brace) return [token];
  return brace[1]!.split(",").flatMap((part) => expand(token.slice(0, brace.index) + part + token.slice(brace.index + brace[0].length)));
}

function exists(candidate: string): boolean {
  const parts = candidate.split("/").filter(Boolean);
  const walk = (dir: string, index: number): boolean => {
    if (index === parts.length) return true;
    const part = parts[index]!;
    if (!part.includes("*") && !part.includes("<")) {
      // A module may be named without its extension (`lib/config`).
      const last = index === parts.length - 1;
      const named = [part, ...(last ? [`${part}.ts`, `${part}.tsx`] : [])].find((name) => fs.existsSync(path.join(dir, name)));
      return named !== undefined && walk(path.join(dir, named), index + 1);
    }
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return false;
    const pattern = new RegExp(
      `^${part
        .replace(/[.+?^$()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/<[^>]+>/g, "[^/]+")}$`,
    );
    return fs.readdirSync(dir).some((entry) => pattern.test(entry) && walk(path.join(dir, entry), index + 1));
  };
  return walk(root, 0);
}

function namedPaths(markdown: string): string[] {
  const found = new Set<string>();
  for (const [, inner] of markdown.matchAll(/`([^`\n]+)`/g)) {
    for (const word of inner!.split(/[\s;()]+/)) {
      const token = word.replace(/[#:].*$/, "").replace(/[.,]+$/, "");
      const top = token.split("/")[0]!;
      if (!token.includes("/") && !/^(server|proxy|instrumentation)\.ts$/.test(token)) continue;
      if (token.includes("/") && !ROOTS.includes(top)) continue;
      if (token.startsWith("app/api/") && token.split("/").length === 2) continue;
      found.add(token);
    }
  }
  return [...found];
}

const documents = [
  "ARCHITECTURE.md",
  ...fs
    .readdirSync(path.join(root, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/${file}`),
];

describe("the architecture map", () => {
  it("stays short enough to read in five minutes", () => {
    expect(fs.readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8").split("\n").length).toBeLessThanOrEqual(170);
  });

  it.each(documents)("%s names only files and folders that exist", (document) => {
    const missing = namedPaths(fs.readFileSync(path.join(root, document), "utf8")).filter((named) => !expand(named).every(exists));
    expect(missing).toEqual([]);
  });
});
