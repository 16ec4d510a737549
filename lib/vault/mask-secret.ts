import "server-only";

const MASK = "••••";
const VISIBLE_CHARS = 4;
/** Below this length the last four characters would reveal too much of the secret. */
const MIN_LENGTH_TO_REVEAL = 8;

export function maskSecret(value: string): string {
  // Code points, not UTF-16 units, so a surrogate pair is never cut in half.
  const chars = Array.from(value);
  if (chars.length < MIN_LENGTH_TO_REVEAL) return MASK;
  return MASK + chars.slice(-VISIBLE_CHARS).join("");
}
