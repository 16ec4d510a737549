"use server";

import { setViewModeCookie } from "@/lib/dashboard/view-mode-cookie";
import { viewModeSchema } from "@/lib/dashboard/view-mode";
import type { Mode } from "@/lib/providers";
import { ok, type Result } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/**
 * The shell's Test/Live switch. Any signed-in member may change their own view; only "test" or
 * "live" is accepted. Setting a cookie in a server action makes Next render the current page
 * again, so its data follows the new view without a reload.
 */
export const setViewModeAction = validatedAction("view-mode.set", { schema: viewModeSchema }, async (input): Promise<Result<Mode>> => {
  await setViewModeCookie(input.mode);
  return ok(input.mode);
});
