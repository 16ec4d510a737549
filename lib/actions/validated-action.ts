import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { requireActionViewer } from "@/lib/auth/viewer";
import { canInMode, modeRefusal, type ModeFamily, type Permission } from "@/lib/identity/permissions";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { fail, problem, problemsFromZod, type Result } from "@/lib/problems";
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from "@/lib/text-safety";
import type { Viewer } from "@/lib/identity/membership";
import { logger } from "@/lib/logger";
import { problemsToFormErrors, type ActionResult } from "./result";

/** Input PostgreSQL cannot store becomes a field problem before any schema or query sees it. */
function unsafeInputResult(input: unknown): { ok: false; problems: ReturnType<typeof problem>[] } | undefined {
  const path = findUnsafeText(input);
  return path ? fail([problem("invalid_character", UNSAFE_TEXT_MESSAGE, path)]) : undefined;
}

/** Input through the schema the form uses: the parsed value, or every problem of the input. */
export function parseActionInput<S extends z.ZodType>(schema: S, input: unknown): Result<z.output<S>> {
  const unsafe = unsafeInputResult(input);
  if (unsafe) return unsafe;
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : fail(problemsFromZod(parsed.error.issues));
}

/**
 * Runs an action body and renders its result for the form (the one place actions do): the value
 * as `data`, problems as form errors; refusals become a message, unexpected errors are logged and
 * reported generically.
 */
export async function runAction<T>(name: string, body: () => Promise<Result<T>>): Promise<ActionResult<T>> {
  try {
    const outcome = await body();
    return outcome.ok ? { ok: true, data: outcome.value } : { ok: false, ...problemsToFormErrors(outcome.problems) };
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof ForbiddenError || error instanceof NotFoundError) {
      return { ok: false, fieldErrors: {}, message: error.message };
    }
    logger.error("action failed", { action: name, error });
    return { ok: false, fieldErrors: {}, message: "Something went wrong on our side. Nothing was saved; please try again." };
  }
}

/** Mode-scoped capabilities (keys, routing, payouts): refused as the table words it when the role may not act in this mode. */
export function assertMayInMode(viewer: Viewer, family: ModeFamily, mode: "test" | "live"): void {
  if (!canInMode(viewer.user.role, family, mode)) throw new ForbiddenError(modeRefusal(viewer.user.role, family, mode));
}

/**
 * A server action that checks the session and, with `can`, the permission table
 * (lib/identity/permissions.ts) itself, then parses its input with the same zod schema the form uses.
 */
export function validatedAction<S extends z.ZodType, T>(
  name: string,
  /** `allowWithoutMfa`: only the two-factor enrolment actions, which an owner who must enrol needs first. */
  options: { schema: S; can?: Permission; allowWithoutMfa?: boolean },
  fn: (input: z.output<S>, viewer: Viewer) => Promise<Result<T>>,
) {
  return async (input: unknown): Promise<ActionResult<T>> =>
    runAction(name, async () => {
      const viewer = await requireActionViewer(options.can, { allowWithoutMfa: options.allowWithoutMfa });
      const parsed = parseActionInput(options.schema, input);
      return parsed.ok ? fn(parsed.value, viewer) : parsed;
    });
}
