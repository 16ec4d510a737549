/**
 * A sandbox's endpoints as one table instead of nested conditionals: each key is "METHOD path",
 * where a `{name}` segment takes any one segment of the request's path and hands it on, still
 * URL-encoded (the handler decodes what it reads). Every sandbox under lib/providers/<slug>/sandbox/
 * routes with it, and keeps its own refusals for what matches nothing.
 */
type SandboxRouteMatch<H> =
  | { kind: "found"; handler: H; params: Readonly<Record<string, string>> }
  /** The path is an endpoint, the method is not one it takes. */
  | { kind: "other-method"; allowed: readonly string[] }
  | { kind: "none" };

type CompiledRoute<H> = { method: string; segments: readonly string[]; handler: H };

function compile<H>(table: Readonly<Record<string, H>>): CompiledRoute<H>[] {
  return Object.entries(table).map(([key, handler]) => {
    const [method, path, ...extra] = key.split(" ");
    if (!method || path === undefined || extra.length > 0) throw new Error(`A sandbox route is "METHOD path", got "${key}"`);
    return { method, segments: path.split("/").filter(Boolean), handler };
  });
}

function paramsOf(segments: readonly string[], path: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (name) params[name] = path[index]!;
    else if (segment !== path[index]) return undefined;
  }
  return params;
}

/** Compiles the table once; the matcher answers which handler a request's method and path segments take. */
export function sandboxRoutes<H>(table: Readonly<Record<string, H>>): (method: string, path: readonly string[]) => SandboxRouteMatch<H> {
  const routes = compile(table);
  return (method, path) => {
    const allowed: string[] = [];
    for (const route of routes) {
      const params = paramsOf(route.segments, path);
      if (!params) continue;
      if (route.method === method) return { kind: "found", handler: route.handler, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: "other-method", allowed } : { kind: "none" };
  };
}
