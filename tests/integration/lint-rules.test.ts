import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The lint step is what keeps the layers pointing one way, so its rules are tested like code:
 * the project's own eslint.config.mjs against modules that break each rule on purpose.
 * `ignore: false` lets it read tests/lint-fixtures/, which normal lint runs skip.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, ignore: false });
});

/** Lints source as if it were the file at `filePath`, which need not exist. */
async function lintAs(filePath: string, code: string) {
  const results = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return results.flatMap((r) => r.messages.map((m) => ({ ruleId: m.ruleId, message: m.message, line: m.line })));
}

describe("project/no-server-only-in-client", () => {
  it('refuses a "use client" module importing a module marked server-only', async () => {
    const [result] = await eslint.lintFiles(["tests/lint-fixtures/client-leak.tsx"]);
    expect(result!.messages.map((m) => [m.ruleId, m.line])).toEqual([["project/no-server-only-in-client", 3]]);
    expect(result!.messages[0]!.message).toContain('"./marked"');
  });

  it("refuses a client component importing the vault, and the marker itself", async () => {
    const code = '"use client";\nimport "server-only";\nimport { encryptSecret } from "@/lib/vault";\nexport const f = encryptSecret;\n';
    expect(await lintAs("components/lint-fixture.tsx", code)).toEqual([
      expect.objectContaining({ ruleId: "project/no-server-only-in-client", line: 2 }),
      expect.objectContaining({ ruleId: "project/no-server-only-in-client", line: 3 }),
    ]);
  });

  it("allows type-only imports from it, and server modules importing it", async () => {
    const typeOnly = '"use client";\nimport type { readSecret } from "@/tests/lint-fixtures/marked";\nexport type F = typeof readSecret;\n';
    expect(await lintAs("components/lint-fixture.tsx", typeOnly)).toEqual([]);
    const server = 'import { readSecret } from "@/tests/lint-fixtures/marked";\nexport const f = readSecret;\n';
    expect(await lintAs("components/lint-fixture.tsx", server)).toEqual([]);
  });
});

describe("layers point one way (no-restricted-imports)", () => {
  it.each([
    ["lib/db/lint-fixture.ts", 'import { INITIAL_STATUS } from "@/lib/invoices/state-machine";\nexport const s = INITIAL_STATUS;\n'],
    ["lib/auth/lint-fixture.ts", 'import { findMerchantByCommerceAccount } from "@/lib/merchants/queries";\nexport const f = findMerchantByCommerceAccount;\n'],
    ["lib/merchants/lint-fixture.ts", 'import { getViewer } from "../auth/viewer";\nexport const f = getViewer;\n'],
    ["lib/identity/lint-fixture.ts", 'import type { AddMemberInput } from "@/lib/merchants/team";\nexport type A = AddMemberInput;\n'],
    ["lib/connections/lint-fixture.ts", 'import { ConnectSection } from "@/components/connections/connect-section";\nexport const c = ConnectSection;\n'],
  ])("refuses %s importing against the grain", async (filePath, code) => {
    expect(await lintAs(filePath, code)).toEqual([expect.objectContaining({ ruleId: "no-restricted-imports", line: 1 })]);
  });

  it("allows lib/auth and lib/merchants to import lib/identity, and lib/db to import lib/config", async () => {
    expect(await lintAs("lib/auth/lint-fixture.ts", 'import { findViewer } from "@/lib/identity/membership";\nexport const f = findViewer;\n')).toEqual([]);
    expect(await lintAs("lib/merchants/lint-fixture.ts", 'import { hashPassword } from "@/lib/identity/password";\nexport const f = hashPassword;\n')).toEqual(
      [],
    );
    expect(
      await lintAs(
        "lib/db/lint-fixture.ts",
        'import { dataDir } from "@/lib/config";\nimport { users } from "./schema";\nexport const f = [dataDir, users];\n',
      ),
    ).toEqual([]);
  });
});

describe("the engine never imports a provider folder (no-restricted-imports)", () => {
  it.each([
    ["lib/processing/lint-fixture.ts", 'import { checkLiveApiUrl } from "@/lib/providers/provider-d/api-url";\nexport const f = checkLiveApiUrl;\n'],
    ["lib/callbacks/lint-fixture.test.ts", 'import { providerEServer } from "../providers/provider-e/server";\nexport const s = providerEServer;\n'],
    ["lib/jobs/nested/lint-fixture.ts", 'import { providerA } from "../../providers/provider-a";\nexport const p = providerA;\n'],
    ["lib/processing/lint-fixture.ts", 'export { providerBAdapter } from "@/lib/providers/provider-b/adapter";\n'],
    ["lib/refunds/lint-fixture.ts", 'import { refundOutcomeOf } from "@/lib/providers/provider-c/mapping";\nexport const r = refundOutcomeOf;\n'],
  ])("refuses %s importing a provider folder", async (filePath, code) => {
    expect(await lintAs(filePath, code)).toEqual([expect.objectContaining({ ruleId: "no-restricted-imports", line: 1 })]);
  });

  it("allows the registry, the server halves' lookup and the kit", async () => {
    const code =
      'import { getProvider } from "@/lib/providers";\nimport { getProviderServer } from "@/lib/providers/server/servers";\nimport type { ProviderServer } from "../providers/kit/provider-server";\n' +
      "export const f = [getProvider, getProviderServer];\nexport type S = ProviderServer;\n";
    expect(await lintAs("lib/callbacks/lint-fixture.ts", code)).toEqual([]);
  });
});

/** dependency-cruiser with the project's .dependency-cruiser.cjs, as `npm run lint:imports` runs it; its violations as "rule: from → to". */
function cruise(paths: string[], ...flags: string[]): string[] {
  const run = spawnSync("npx", ["depcruise", ...paths, "--config", ".dependency-cruiser.cjs", "--output-type", "json", ...flags], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const result = JSON.parse(run.stdout) as { summary: { violations: { from: string; to: string; rule: { name: string } }[] } };
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe("dependency-cruiser: the layer order and no cycle, type-only imports included", () => {
  it("refuses two modules that import each other, through a relative path and the @/ alias", () => {
    // Reported once, on the import that closes the circle.
    expect(cruise(["tests/lint-fixtures/cycle-a.ts", "tests/lint-fixtures/cycle-b.ts"])).toEqual([
      expect.stringMatching(/^no-circular: tests\/lint-fixtures\/cycle-[ab]\.ts → tests\/lint-fixtures\/cycle-[ab]\.ts$/),
    ]);
  });

  it("refuses a cycle made of type-only imports", () => {
    expect(cruise(["tests/lint-fixtures/type-cycle-a.ts", "tests/lint-fixtures/type-cycle-b.ts"])).toEqual([
      expect.stringMatching(/^no-circular: tests\/lint-fixtures\/type-cycle-[ab]\.ts → tests\/lint-fixtures\/type-cycle-[ab]\.ts$/),
    ]);
  });

  it("finds in lib/ exactly the imports against the order that the config lists as known, a type-only one among them", () => {
    const known = JSON.parse(fs.readFileSync(path.join(root, ".dependency-cruiser-known-violations.json"), "utf8")) as {
      from: string;
      to: string;
      rule: { name: string };
    }[];
    const found = cruise(["lib"], "--no-ignore-known");
    expect(found).toEqual(known.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort());
    // `import type { FormErrors }`: erased before anything runs, still an arrow against the order.
    expect(found).toContain("layer-refunds-and-composer: lib/composer/api-errors.ts → lib/actions/result.ts");
  }, 120_000);
});
