"use client";

/**
 * zod compiles object schemas with `new Function` when the page allows eval, and probes for it by
 * calling `new Function("")` once. Under the Content-Security-Policy (proxy.ts: no 'unsafe-eval')
 * that probe is refused, harmlessly, but browsers still report it as a violation. In the browser
 * zod is told not to try (the forms' schemas are small; the server keeps its compiled parsers).
 *
 * The setting is made without importing zod: every zod entry point keeps its settings in one object
 * on `globalThis.__zod_globalConfig` (zod/v4/core/core.js), which zod adopts when it loads later and
 * which is shared when it already has. So pages that never validate in the browser (the hosted
 * page) carry no zod at all, and the dashboard's forms find the setting made.
 * zod-jitless.test.ts checks both orders against the installed zod.
 */
export function makeZodJitless(): void {
  const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  (scope.__zod_globalConfig ??= {}).jitless = true;
}

if (typeof window !== "undefined") makeZodJitless();

/** Rendered once in the root layout so the setting above runs before any form parses. */
export function ZodJitless() {
  return null;
}
