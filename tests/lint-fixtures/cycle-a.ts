import { countDown } from "./cycle-b";

/** Half of a deliberate import cycle: lint must refuse it (tests/integration/lint-rules.test.ts). */
export function countUp(n: number): number {
  return n > 10 ? n : countDown(n + 2);
}
