// `npm test`: lint, type check and unit tests (side by side), then integration and e2e tests, in that
// order; stops at the first failure. Ends with one plain summary line counting the tests of every runner.
//
// TEST_AFTER_E2E: a shell command run as one more step once the e2e tests have passed, its failure
// failing the run. CI's PostgreSQL pass (.ci/run) uses it. It ran beside the e2e tests once (niced), to
// fill the part of the two cores Playwright leaves idle; on a 2-core machine that made both crawl: the
// e2e tests took 1,470 s instead of 498 s alone, the PostgreSQL integration pass 883-1,518 s instead of
// 118 s alone, and its timeouts fired. One after the other they take about 620 s.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

/** A step is one command, or a list of commands run side by side (lint, the import rules, tsc, knip and Prettier are single-threaded: two cores take them and the unit tests). */
const steps = [
  [
    ["lint", "npx", ["eslint", ".", "--max-warnings=0"]],
    ["import rules", "npm", ["run", "--silent", "lint:imports"]],
    ["type check", "npx", ["tsc", "--noEmit"]],
    ["dead code", "npx", ["knip", "--no-progress"]],
    ["format", "npx", ["prettier", "--check", ".", "--log-level", "warn"]],
    ["unit tests", "npx", ["vitest", "run", "--project", "unit", "--reporter=default", "--reporter=json", "--outputFile=test-reports/unit.json"]],
  ],
  [
    "integration tests",
    "npx",
    ["vitest", "run", "--project", "integration", "--reporter=default", "--reporter=json", "--outputFile=test-reports/integration.json"],
  ],
  ["browser", "node", ["scripts/ensure-browser.mjs"]],
  // The type check step above has passed by now: the build skips its own copy of it (next.config.mjs).
  // In CI (a clean clone, thrown away after) it also skips writing Turbopack's cache for a next build.
  ["build", "npx", ["next", "build"], { NEXT_BUILD_SKIP_TYPECHECK: "1", ...(process.env.CI ? { NEXT_BUILD_NO_CACHE: "1" } : {}) }],
  ["e2e tests", "npx", ["playwright", "test"]],
];

fs.rmSync("test-reports", { recursive: true, force: true });
fs.mkdirSync("test-reports", { recursive: true });

function counts() {
  let passed = 0;
  let failed = 0;
  for (const file of ["unit", "integration"]) {
    try {
      const r = JSON.parse(fs.readFileSync(`test-reports/${file}.json`, "utf8"));
      passed += r.numPassedTests;
      failed += r.numFailedTests;
    } catch {}
  }
  try {
    const r = JSON.parse(fs.readFileSync("test-reports/e2e.json", "utf8"));
    passed += r.stats.expected;
    failed += r.stats.unexpected + r.stats.flaky;
  } catch {}
  return { passed, failed };
}

const seconds = (started) => ((Date.now() - started) / 1000).toFixed(1);

/** One step in the foreground, its output as it comes. */
function runStep([name, cmd, args, env = {}]) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  console.log(`=== ${name}: ${r.status === 0 ? "ok" : "FAILED"} in ${seconds(started)}s`);
  return r.status ?? 1;
}

/** Steps side by side; each one's output is printed whole when it ends, so the log stays readable. */
async function runTogether(group) {
  const results = await Promise.all(
    group.map(
      ([name, cmd, args, env = {}]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const output = [];
          const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
          child.stdout.on("data", (chunk) => output.push(chunk));
          child.stderr.on("data", (chunk) => output.push(chunk));
          child.on("close", (code) => {
            console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
            process.stdout.write(Buffer.concat(output));
            console.log(`=== ${name}: ${code === 0 ? "ok" : "FAILED"} in ${seconds(started)}s`);
            resolve(code ?? 1);
          });
        }),
    ),
  );
  return results.find((code) => code !== 0) ?? 0;
}

if (process.env.TEST_AFTER_E2E) steps.push(["after the e2e tests", "bash", ["-c", process.env.TEST_AFTER_E2E]]);

let status = 0;
for (const step of steps) {
  status = Array.isArray(step[0]) ? await runTogether(step) : runStep(step);
  if (status !== 0) break;
}
const { passed, failed } = counts();
console.log(`\n${passed} passed, ${failed + (status && !failed ? 1 : 0)} failed`);
process.exit(status);
