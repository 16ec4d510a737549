// `npm run dev`: serves the app on the embedded database and says how to sign in.
import { spawn } from "node:child_process";

const port = process.env.PORT || "3000";
console.log(`\n  Payment Orchestrator: http://localhost:${port}`);
console.log("  Create an account at /sign-up, or seed a demo merchant with: npm run admin -- seed-demo (server stopped)\n");
const child = spawn("npx", ["next", "dev", "--port", port], { stdio: "inherit", env: { ...process.env, PORT: port } });
child.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
