// `npm test`: lint, type check and unit tests (side by side), then integration and e2e tests, in that
// order; stops at the first failure. Ends with one plain summary line counting the tests of every runner.
//
// TEST_ALONGSIDE_E2E: a shell command started (at lower priority) when the e2e tests start and awaited
// after them, its output printed at the end and its failure failing the run. CI's PostgreSQL pass
// (.ci/run) uses it: Playwright leaves part of the two cores idle while browsers and the server wait
// on each other, and the second pass fills it instead of running after everything else.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

/** A step is one command, or a list of commands run side by side (lint and tsc are single-threaded: two cores take them and the unit tests). */
const steps = [
  [
    ["lint", "npx", ["eslint", ".", "--max-warnings=0"]],
    ["type check", "npx", ["tsc", "--noEmit"]],
    ["unit tests", "npx", ["vitest", "run", "--project", "unit", "--reporter=default", "--reporter=json", "--outputFile=test-reports/unit.json"]],
  ],
  ["integration tests", "npx", ["vitest", "run", "--project", "integration", "--reporter=default", "--reporter=json", "--outputFile=test-reports/integration.json"]],
  ["browser", "node", ["scripts/ensure-browser.mjs"]],
  // The type check step above has passed by now: the build skips its own copy of it (next.config.mjs).
  ["build", "npx", ["next", "build"], { NEXT_BUILD_SKIP_TYPECHECK: "1" }],
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

/** The command of TEST_ALONGSIDE_E2E in the background, niced; resolves with its exit code and output. */
function startAlongside(command) {
  const started = Date.now();
  const output = [];
  const child = spawn("nice", ["-n", "10", "bash", "-c", command], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (chunk) => output.push(chunk));
  child.stderr.on("data", (chunk) => output.push(chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? 1, output: Buffer.concat(output), seconds: seconds(started) })));
}

let status = 0;
let alongside;
for (const step of steps) {
  if (step[0] === "e2e tests" && process.env.TEST_ALONGSIDE_E2E) alongside = startAlongside(process.env.TEST_ALONGSIDE_E2E);
  status = Array.isArray(step[0]) ? await runTogether(step) : runStep(step);
  if (status !== 0) break;
}
if (alongside) {
  console.log(`\n=== alongside the e2e tests: ${process.env.TEST_ALONGSIDE_E2E}`);
  const done = await alongside;
  process.stdout.write(done.output);
  console.log(`=== alongside the e2e tests: ${done.code === 0 ? "ok" : "FAILED"} in ${done.seconds}s`);
  if (status === 0 && done.code !== 0) status = done.code;
}
const { passed, failed } = counts();
console.log(`\n${passed} passed, ${failed + (status && !failed ? 1 : 0)} failed`);
process.exit(status);
