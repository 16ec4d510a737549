import { z } from "zod";
import { MODES, type Mode } from "@/lib/providers";

/**
 * The dashboard's Test/Live view, kept in a cookie the server reads, so every page
 * renders the chosen mode's data on the first paint.
 *
 * A merchant starts in test mode, as Stripe does: a new account has nothing live (live
 * connections need real credentials, live invoices a live connection), so test data is the only
 * data there is to see, and the checklist's steps happen there. An owner switches to live when
 * live is set up.
 */
export const VIEW_MODE_COOKIE = "view_mode";
const DEFAULT_VIEW_MODE: Mode = "test";

export const viewModeSchema = z.object({ mode: z.enum(MODES) });

/** The cookie's value as a mode; anything else (absent, tampered with) is the default. */
export function parseViewMode(value: string | undefined): Mode {
  return (MODES as readonly string[]).includes(value ?? "") ? (value as Mode) : DEFAULT_VIEW_MODE;
}

/** The view from a request's Cookie header, for route handlers that get a plain Request. */
export function viewModeFromCookieHeader(header: string | null): Mode {
  for (const part of (header ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === VIEW_MODE_COOKIE) return parseViewMode(value.join("="));
  }
  return DEFAULT_VIEW_MODE;
}
