import { z } from "zod";
import { UNKNOWN_KEY_SEPARATOR } from "@/lib/problems";

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The allowed key a typo most likely meant (`test_mod` → `test_mode`), if any is close. */
function suggestKey(key: string, allowed: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const distance = editDistance(lower, candidate);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

function describeUnknownKey(key: string, allowed: readonly string[], noun: string): string {
  const suggestion = suggestKey(key, allowed);
  const hint = suggestion ? ` Did you mean "${suggestion}"?` : "";
  return `Unknown ${noun} "${key}".${hint} Allowed: ${allowed.join(", ")}.`;
}

/**
 * An object that rejects unknown keys with a message naming the allowed ones. Used where a
 * typo changes money behaviour: `test_mod` instead of `test_mode` must not create a live invoice.
 */
export function strictObjectOf<T extends z.core.$ZodLooseShape>(shape: T, noun: string) {
  const allowed = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? issue.keys.map((key) => describeUnknownKey(key, allowed, noun)).join(UNKNOWN_KEY_SEPARATOR) : undefined,
  });
}
