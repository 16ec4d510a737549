import { problem, type Problem } from "../../problems";
import type { CredentialValues, Mode } from "../types";

/** Spec 5.2: `dev_` keys belong to Provider F's sandbox, `prod_` keys to live processing. */
type KeyFamily = "dev" | "prod";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
export const PUBLIC_KEY_PATTERN = new RegExp(`^(dev|prod)_pub_${UUID}$`);
export const SECRET_KEY_PATTERN = /^(dev|prod)_sec_[A-Za-z0-9_-]{24,}$/;

const FAMILY_BY_MODE: Readonly<Record<Mode, KeyFamily>> = { test: "dev", live: "prod" };
const MODE_LABEL: Readonly<Record<Mode, string>> = { test: "Test mode", live: "Live mode" };

function readFamily(value: unknown): KeyFamily | null {
  if (typeof value !== "string") return null;
  if (value.startsWith("dev_")) return "dev";
  if (value.startsWith("prod_")) return "prod";
  return null;
}

function checkKey(value: unknown, field: string, kind: "pub" | "sec", mode: Mode): Problem[] {
  const family = readFamily(value);
  const expected = FAMILY_BY_MODE[mode];
  // Malformed keys are reported by the field's own schema; only a wrong family is reported here.
  if (family === null || family === expected) return [];
  return [problem("key_mode_mismatch", `${MODE_LABEL[mode]} takes a ${expected}_${kind}_ key; this one starts with ${family}_${kind}_`, [field])];
}

/**
 * Both keys must come from the environment the connection runs in (its Test/Live mode), which also
 * forces them into the same family. A legacy `test_mode` credential, when an API client still sends
 * one, must agree with the mode.
 */
export function assertKeyPrefixMatchesMode(credentials: CredentialValues, mode: Mode): Problem[] {
  const testMode = credentials.test_mode;
  const issues: Problem[] = [];
  if (typeof testMode === "boolean" && (testMode ? "test" : "live") !== mode) {
    const message = testMode ? "Test mode is on, but the connection is being saved as live" : "Test mode is off, but the connection is being saved as test";
    issues.push(problem("mode_mismatch", message, ["test_mode"]));
  }
  issues.push(...checkKey(credentials.public_key, "public_key", "pub", mode));
  issues.push(...checkKey(credentials.secret_key, "secret_key", "sec", mode));
  return issues;
}
