import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { projectRules } from "./eslint-rules/no-server-only-in-client.mjs";

/** `import x from "@/lib/<dir>"` and, from a sibling folder of lib/, `"../<dir>"`. */
function importsOf(...dirs) {
  return dirs.flatMap((dir) => [`@/${dir}`, `@/${dir}/*`, `../${dir.replace(/^lib\//, "")}`, `../${dir.replace(/^lib\//, "")}/*`]);
}

const NOT_APP = { group: ["@/app", "@/app/*", "@/components", "@/components/*"], message: "lib/ never imports from app/ or components/." };

/** A provider folder (`lib/providers/provider-<x>/…`), through the @/ alias or a relative path of any depth. */
const PROVIDER_FOLDER = {
  regex: "(^|/)providers/provider-[^/]+(/|$)",
  message:
    "The engine never names a provider: ask the provider's server half through its hooks (getProviderServer in lib/providers/server/servers.ts) or the registry, and give a provider's rule a hook of its own in lib/providers/kit/provider-server.ts.",
};

/** Layers point one way (ARCHITECTURE.md): each entry names what a folder must not import, and why. */
function layer(files, ...patterns) {
  return { files, rules: { "no-restricted-imports": ["error", { patterns: [NOT_APP, ...patterns] }] } };
}

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.{js,jsx,mjs,ts,tsx}"],
    plugins: { project: projectRules },
    rules: { "project/no-server-only-in-client": "error" },
  },
  {
    files: ["app/**", "components/**"],
    ignores: ["components/link.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "next/link", message: "Use Link from @/components/link: it prefetches a page when a person reaches for it, not on sight." }] },
      ],
    },
  },
  layer(["lib/**"]),
  layer(["lib/db/**"], {
    group: ["@/lib/*", "!@/lib/db", "!@/lib/config", "../*", "!../config"],
    message: "lib/db is the bottom layer: it imports only lib/db and lib/config (value sets go in lib/db/enums.ts).",
  }),
  layer(["lib/identity/**"], {
    group: importsOf("lib/auth", "lib/merchants"),
    message: "lib/identity sits below lib/auth and lib/merchants: they import it, never the other way.",
  }),
  layer(["lib/auth/**"], { group: importsOf("lib/merchants"), message: "lib/auth and lib/merchants meet only in lib/identity." }),
  layer(["lib/merchants/**"], { group: importsOf("lib/auth"), message: "lib/auth and lib/merchants meet only in lib/identity." }),
  layer(["lib/processing/**", "lib/callbacks/**", "lib/jobs/**", "lib/refunds/**", "lib/disputes/**"], PROVIDER_FOLDER),
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      ".data/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "lib/db/migrations/**",
      // Deliberately broken modules that tests/integration/lint-rules.test.ts lints on purpose.
      "tests/lint-fixtures/**",
    ],
  },
];

export default config;
