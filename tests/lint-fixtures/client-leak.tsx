"use client";

import { readSecret } from "./marked";

/** A client component reaching for a server-only module: lint must refuse it. */
export function ClientLeak() {
  return <p>{readSecret()}</p>;
}
