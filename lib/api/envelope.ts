import { z } from "zod";
import { problemsFromZod } from "@/lib/problems";
import { ApiError, ApiValidationError } from "./errors";

/**
 * Reads `{ data: { type, attributes } }` and checks the type; attribute problems are the
 * caller's schema's to report. Envelope problems carry absolute pointers (/data/type).
 */
export function readEnvelope(body: unknown, type: string): { attributes: Record<string, unknown>; data: Record<string, unknown> } {
  const schema = z.object(
    {
      data: z
        .object(
          {
            type: z.literal(type, { error: `data.type must be "${type}"` }),
            attributes: z.record(z.string(), z.unknown(), { error: "data.attributes must be an object" }),
          },
          { error: "data must be an object" },
        )
        .loose(),
    },
    { error: "The body must be a JSON object with a data member" },
  );
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues), { base: "" });
  return { attributes: parsed.data.data.attributes, data: parsed.data.data };
}

/**
 * JSON:API: a server that does not take client-generated ids MUST answer 403 to a create request
 * carrying `data.id`. Checked before anything else about the body, so the refusal is unambiguous.
 */
export function refuseClientGeneratedId(body: unknown): void {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return;
  const data = (body as { data?: unknown }).data;
  if (typeof data !== "object" || data === null || Array.isArray(data) || !("id" in data)) return;
  throw new ApiError(
    403,
    "client_generated_id",
    "Client-generated id not supported",
    "The server assigns the id of a new resource; send the create request without data.id.",
    "/data/id",
  );
}
