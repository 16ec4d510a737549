import type { Mode } from "@/lib/providers";
import { ApiError, type JsonApiError } from "./errors";

/**
 * The management API (connections, routing, routing settings) serves the API key's mode only, as
 * the invoice API does: a leaked test key must not be able to point live payments elsewhere. The
 * other mode's resources are not found (404), a create or a request in the other mode is refused
 * (403 key_mode_mismatch), lists hold the key's mode. Every refusal carries the same sentence, so an
 * integration that used a test key for live configuration is told what to do.
 */
function keyModeRule(keyMode: Mode): string {
  return keyMode === "test"
    ? "A test API key (pok_test_…) manages test-mode connections and routing only; live ones, and the routing settings both modes share, need a live API key (pok_live_…)."
    : "A live API key (pok_live_…) manages live-mode connections and routing only; test ones need a test API key (pok_test_…).";
}

const TITLE = "Wrong mode for this API key";

/** The refusal of a query parameter: the same error, with source.parameter instead of a pointer. */
class ParameterError extends ApiError {
  constructor(
    detail: string,
    readonly parameter: string,
  ) {
    super(403, "key_mode_mismatch", TITLE, detail);
  }

  override toJsonApi(): JsonApiError {
    return { ...super.toJsonApi(), source: { parameter: this.parameter } };
  }
}

/**
 * The key's mode. The management routes never take the composer's session credential (the only
 * caller without a mode), so a missing mode is a wiring mistake, never a client's.
 */
export function managedMode(keyMode: Mode | undefined): Mode {
  if (!keyMode) throw new Error("the management API is called with a stored API key only");
  return keyMode;
}

/** 404 for a resource that is not the key's: the same answer whether it is the other mode's or does not exist. */
export function notFoundForKey(keyMode: Mode | undefined, what: string): ApiError {
  return new ApiError(
    404,
    "not_found",
    "Not found",
    `No ${what} exists among this key's ${managedMode(keyMode)}-mode resources. ${keyModeRule(managedMode(keyMode))}`,
  );
}

/** Whether a resource of `mode` is the key's to see and manage. */
export function keyServes(keyMode: Mode | undefined, mode: Mode): boolean {
  return managedMode(keyMode) === mode;
}

/** A create or request whose body names the other mode: 403 key_mode_mismatch (at `pointer`), before anything is stored or decided. */
export function refuseOtherMode(keyMode: Mode | undefined, mode: Mode, pointer?: string): void {
  if (!keyServes(keyMode, mode)) throw new ApiError(403, "key_mode_mismatch", TITLE, keyModeRule(managedMode(keyMode)), pointer);
}

/** A query parameter asking for the other mode (a list's filter[mode]): 403 key_mode_mismatch naming the parameter. */
export function refuseOtherModeParameter(keyMode: Mode | undefined, mode: Mode | undefined, parameter: string): void {
  if (mode !== undefined && !keyServes(keyMode, mode)) {
    throw new ParameterError(keyModeRule(managedMode(keyMode)), parameter);
  }
}

/** Settings that hold for both modes: only a live key changes them, since they steer live routing too. */
export function refuseSharedChange(keyMode: Mode | undefined): void {
  refuseOtherMode(keyMode, "live");
}
