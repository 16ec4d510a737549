"use client";

import { z } from "zod";

/**
 * zod compiles object schemas with `new Function` when the page allows eval, and probes for it by
 * calling `new Function("")` once. Under the Content-Security-Policy (proxy.ts: no 'unsafe-eval')
 * that probe is refused, harmlessly, but browsers still report it as a violation. In the browser
 * zod is told not to try (the forms' schemas are small; the server keeps its compiled parsers).
 */
if (typeof window !== "undefined") z.config({ jitless: true });

/** Rendered once in the root layout so the setting above runs before any form parses. */
export function ZodJitless() {
  return null;
}
