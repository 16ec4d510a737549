// `npm run dev`: serves the app on the embedded database and says how to sign in.
// Runs Next's own CLI under this node (not through npx, which does not pass signals on), hands it
// SIGINT and SIGTERM, and exits when it exits: stopping this process stops `next dev` and its
// server, which frees the port and the data-directory lock. The npm script `exec`s this file, so
// the signals npm passes on reach it rather than an intermediate shell that would drop them.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import os from "node:os";

const port = process.env.PORT || "3000";
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

console.log(`\n  Payment Orchestrator: http://localhost:${port}`);
console.log("  Create an account at /sign-up, or seed a demo merchant with: npm run admin -- seed-demo (server stopped)");
// lib/mail/config.ts: without SMTP_URL, mail is kept in the outbox, served at /outbox outside production.
if (process.env.SMTP_URL?.trim()) console.log("  Mail is sent through SMTP_URL.\n");
else console.log(`  Mail is not sent (no SMTP_URL): sign-up links, resets and invitations are at http://localhost:${port}/outbox\n`);

const child = spawn(process.execPath, [nextBin, "dev", "--port", port], {
  stdio: "inherit",
  env: { ...process.env, PORT: port },
});

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}

child.on("error", (error) => {
  console.error(`Could not start next dev: ${error.message}`);
  process.exit(1);
});

child.on("exit", (code, signal) => {
  process.exit(code ?? (signal ? 128 + os.constants.signals[signal] : 1));
});
