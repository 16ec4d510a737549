import { countUp } from "@/tests/lint-fixtures/cycle-a";

/** The other half, imported through the `@/` alias so the resolver's path is exercised too. */
export function countDown(n: number): number {
  return countUp(n - 1);
}
