import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { requireActionViewer } from "@/lib/auth/viewer";
import type { Role } from "@/lib/db/schema";
import { ForbiddenError, NotFoundError, fromZodIssues, type FieldError } from "@/lib/errors";
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from "@/lib/text-safety";
import type { Viewer } from "@/lib/identity/membership";
import { logger } from "@/lib/logger";
import type { ActionResult } from "./result";

/** Input PostgreSQL cannot store becomes a field error before any schema or query sees it. */
export function unsafeInputResult(input: unknown): { ok: false; errors: FieldError[] } | undefined {
  const path = findUnsafeText(input);
  return path ? { ok: false, errors: [{ path, message: UNSAFE_TEXT_MESSAGE, code: "invalid_character" }] } : undefined;
}

/** Runs an action body, turning refusals into results; unexpected errors are logged and reported generically. */
export async function runAction<T>(name: string, body: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  try {
    return await body();
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof ForbiddenError || error instanceof NotFoundError) {
      return { ok: false, errors: [], message: error.message };
    }
    logger.error("action failed", { action: name, error });
    return { ok: false, errors: [], message: "Something went wrong on our side. Nothing was saved; please try again." };
  }
}

/**
 * A server action that checks the session and role itself, then parses its input with the
 * same zod schema the form uses.
 */
export function validatedAction<S extends z.ZodType, T>(
  name: string,
  options: { schema: S; role?: Role },
  fn: (input: z.output<S>, viewer: Viewer) => Promise<ActionResult<T>>,
) {
  return async (input: unknown): Promise<ActionResult<T>> =>
    runAction(name, async () => {
      const viewer = await requireActionViewer(options.role);
      const unsafe = unsafeInputResult(input);
      if (unsafe) return unsafe;
      const parsed = options.schema.safeParse(input);
      if (!parsed.success) return { ok: false, errors: fromZodIssues(parsed.error.issues) };
      return fn(parsed.data, viewer);
    });
}
