import "server-only";

/** Stands in for a module that holds secrets. */
export function readSecret(): string {
  return "not for the browser";
}
