/**
 * A fresh UUID v4 for `reference_id` (spec 2.2: "UUID-shaped in the examples"). Built on
 * getRandomValues because crypto.randomUUID exists only in secure contexts, and the dashboard may
 * be opened over plain http on a private network.
 */
export function newReferenceId(random: (bytes: Uint8Array) => Uint8Array = (b) => globalThis.crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
