import type { Tree } from "@/tests/lint-fixtures/type-cycle-a";

/** The other half, through the `@/` alias (tests/integration/lint-rules.test.ts). */
export type Leaf = { tree: Tree };
