import type { Leaf } from "./type-cycle-b";

/** Half of a cycle of type-only imports: eslint's import/no-cycle skips it, dependency-cruiser must refuse it. */
export type Tree = { leaves: Leaf[] };
