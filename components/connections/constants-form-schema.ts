import { z } from "zod";
import { constantsSchema } from "@/lib/customers";
import type { KindSpec } from "@/lib/providers";

/**
 * The constants editor's schema, nested under `constants` so server errors (paths like
 * ["constants", "CITY"]) land on their rows. Its own module: the editor loads it (and zod) on the
 * first check, not with the page.
 */
export function constantsFormSchema(kind: KindSpec) {
  return z.object({ constants: constantsSchema(kind.constants) });
}
