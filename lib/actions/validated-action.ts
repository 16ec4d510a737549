import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { requireActionViewer } from "@/lib/auth/viewer";
import type { Role } from "@/lib/db/schema";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { problem, problemsFromZod } from "@/lib/problems";
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from "@/lib/text-safety";
import type { Viewer } from "@/lib/identity/membership";
import { logger } from "@/lib/logger";
import { problemsToFormErrors, type ActionOutcome, type ActionResult } from "./result";

/** Input PostgreSQL cannot store becomes a field problem before any schema or query sees it. */
export function unsafeInputResult(input: unknown): ActionOutcome<never> | undefined {
  const path = findUnsafeText(input);
  return path ? { ok: false, problems: [problem("invalid_character", UNSAFE_TEXT_MESSAGE, path)] } : undefined;
}

/**
 * Runs an action body and renders its problems as form errors (the one place actions do);
 * refusals become a message, unexpected errors are logged and reported generically.
 */
export async function runAction<T>(name: string, body: () => Promise<ActionOutcome<T>>): Promise<ActionResult<T>> {
  try {
    const outcome = await body();
    return outcome.ok ? outcome : { ok: false, ...problemsToFormErrors(outcome.problems, outcome.message) };
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof ForbiddenError || error instanceof NotFoundError) {
      return { ok: false, fieldErrors: {}, message: error.message };
    }
    logger.error("action failed", { action: name, error });
    return { ok: false, fieldErrors: {}, message: "Something went wrong on our side. Nothing was saved; please try again." };
  }
}

/**
 * A server action that checks the session and role itself, then parses its input with the
 * same zod schema the form uses.
 */
export function validatedAction<S extends z.ZodType, T>(
  name: string,
  options: { schema: S; role?: Role },
  fn: (input: z.output<S>, viewer: Viewer) => Promise<ActionOutcome<T>>,
) {
  return async (input: unknown): Promise<ActionResult<T>> =>
    runAction(name, async () => {
      const viewer = await requireActionViewer(options.role);
      const unsafe = unsafeInputResult(input);
      if (unsafe) return unsafe;
      const parsed = options.schema.safeParse(input);
      if (!parsed.success) return { ok: false, problems: problemsFromZod(parsed.error.issues) };
      return fn(parsed.data, viewer);
    });
}
