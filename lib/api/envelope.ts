import { z } from "zod";
import { problemsFromZod } from "@/lib/problems";
import { ApiValidationError } from "./errors";

/**
 * Reads `{ data: { type, attributes } }` and checks the type; attribute problems are the
 * caller's schema's to report. Envelope problems carry absolute pointers (/data/type).
 */
export function readEnvelope(body: unknown, type: string): { attributes: Record<string, unknown>; data: Record<string, unknown> } {
  const schema = z.object({
    data: z.object({
      type: z.literal(type, { error: `data.type must be "${type}"` }),
      attributes: z.record(z.string(), z.unknown(), { error: "data.attributes must be an object" }),
    }, { error: "data must be an object" }).loose(),
  }, { error: "The body must be a JSON object with a data member" });
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues), { base: "" });
  return { attributes: parsed.data.data.attributes, data: parsed.data.data };
}
