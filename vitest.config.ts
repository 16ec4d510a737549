import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
// Tests run outside React's "react-server" condition, where `server-only` would throw on import.
const serverOnlyMarker = fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root, "server-only": serverOnlyMarker } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts"],
          environment: "node",
          maxWorkers: 2,
          // Unit files import the same modules and keep no state between files: loading them once per
          // worker instead of once per file takes the suite from 27 s to 9 s. A file that mocks a
          // module its subject imports loads that subject afresh (vi.resetModules, as the vault's
          // race test does).
          isolate: false,
          // npm test runs the unit tests beside lint, tsc, knip and Prettier on two cores: a test of
          // a few seconds alone (a property over streams, a fresh process) may take twice that there.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // Through Vite, next-auth's imports resolve as the app's do (Node's resolver cannot find its
          // bare "next/server"), so tests can run the real sign-in and session routes.
          server: { deps: { inline: ["next-auth"] } },
          setupFiles: ["tests/integration/setup.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          environment: "node",
          // Both cores: each file has its own database, so files run side by side safely.
          maxWorkers: 2,
          // Each file is a fresh process that opens its own PGlite: by default V8 compiles the
          // database's WebAssembly twice, quickly (Liftoff) and then optimised (TurboFan) on
          // background threads, and a file ends long before the second pays back. Liftoff alone
          // opens a PGlite in about a third of the CPU and runs its first queries several times
          // faster (docs/decisions.md, "CI time").
          execArgv: ["--liftoff-only"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // `npm run test:reliability`: suites that take minutes, start real servers (`next build`
        // first) and need PostgreSQL. tests/reliability/setup.ts stops the run when DATABASE_URL is
        // not set, rather than skipping. Files run one at a time: they start servers of their own.
        extends: true,
        test: {
          name: "reliability",
          include: ["tests/reliability/**/*.test.ts"],
          setupFiles: ["tests/reliability/setup.ts"],
          environment: "node",
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
