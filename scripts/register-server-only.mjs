// Plain Node entry points (server.ts, scripts/admin.ts, bench/) run outside React's "react-server"
// condition, where `server-only` throws on import. This maps it to an empty module for them:
//   tsx --import ./scripts/register-server-only.mjs server.ts
// Next's build keeps enforcing it: a client component that imports a marked module still fails.
import { register } from "node:module";

const hooks = `
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "server-only") return { url: "data:text/javascript,export {}", shortCircuit: true };
  return nextResolve(specifier, context);
}
`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
